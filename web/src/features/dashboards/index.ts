export const loadDashboardScreen = () => import('./screens/DashboardScreen');
export const loadWorkerDashboardScreen = () => import('./screens/worker-dashboard/WorkerDashboardScreen');
export const loadPosterDashboardScreen = () => import('./screens/poster-dashboard/PosterDashboardScreen');
