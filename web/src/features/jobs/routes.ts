import type { ClientLoader } from '../../lib/api/client-loader';
import { jobQueryOptions } from './api/fetch-job';

// This feature's screens for the app's router, each its own chunk (React.lazy). Kept out of
// index.ts, which re-exports them: see README "Web app layout".
export const loadJobDetailScreen = () => import('./screens/JobDetailScreen');
export const loadPostJobScreen = () => import('./screens/PostJobScreen');

/** The job page reads the job on entry. */
export const jobDetailClientLoader: ClientLoader = (queryClient, api, { id = '' }) => queryClient.ensureQueryData(jobQueryOptions(api, id));
