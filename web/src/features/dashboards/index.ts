export { loadDashboardScreen, loadWorkerDashboardScreen, loadPosterDashboardScreen } from './routes';
export { useDashboard } from './hooks/useDashboard';
