import type { ClientLoader } from '../../lib/api/client-loader';
import { savedJobsQueryOptions } from '../jobs';
import { dashboardQueryOptions } from './api/fetch-dashboard';

// This feature's screens for the app's router, each its own chunk (React.lazy). Kept out of
// index.ts, which re-exports them: see README "Web app layout".
export const loadDashboardScreen = () => import('./screens/DashboardScreen');
export const loadWorkerDashboardScreen = () => import('./screens/worker-dashboard/WorkerDashboardScreen');
export const loadPosterDashboardScreen = () => import('./screens/poster-dashboard/PosterDashboardScreen');

/** The worker's dashboard reads its dashboard and saved jobs on entry (FIRST_READS.workerDashboard). */
export const workerDashboardClientLoader: ClientLoader = (queryClient, api) =>
  Promise.all([queryClient.ensureQueryData(dashboardQueryOptions(api)), queryClient.ensureQueryData(savedJobsQueryOptions(api))]);
/** The poster's dashboard reads its dashboard on entry (FIRST_READS.posterDashboard). */
export const posterDashboardClientLoader: ClientLoader = (queryClient, api) => queryClient.ensureQueryData(dashboardQueryOptions(api));
