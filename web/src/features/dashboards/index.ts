export { loadDashboardScreen, loadWorkerDashboardScreen, loadPosterDashboardScreen, posterDashboardClientLoader, workerDashboardClientLoader } from './routes';
export { useDashboard } from './api/fetch-dashboard';
