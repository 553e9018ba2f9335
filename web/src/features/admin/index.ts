export { loadAdminDashboardScreen } from './routes';
