export { loadAdminDashboardScreen, loadAdminUserScreen } from './routes';
