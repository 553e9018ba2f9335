export { loadDashboardScreen, loadWorkerDashboardScreen, loadPosterDashboardScreen } from './routes';
