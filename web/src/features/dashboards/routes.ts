// This feature's screens for the app's router, each its own chunk (React.lazy). Kept out of
// index.ts, which re-exports them: see README "Web app layout".
export const loadDashboardScreen = () => import('./screens/DashboardScreen');
export const loadWorkerDashboardScreen = () => import('./screens/worker-dashboard/WorkerDashboardScreen');
export const loadPosterDashboardScreen = () => import('./screens/poster-dashboard/PosterDashboardScreen');
