export { loadDashboardScreen, loadWorkerDashboardScreen, loadPosterDashboardScreen, posterDashboardClientLoader, workerDashboardClientLoader } from './routes';
