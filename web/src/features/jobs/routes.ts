import type { ClientLoader } from '../../lib/api/client-loader';
import { FIRST_READS } from '../../lib/api/first-reads';
import { keptSessionRole } from '../../lib/auth/session';
import { ownApplicationQueryOptions } from '../applications';
import { jobQueryOptions } from './api/fetch-job';

// This feature's screens for the app's router, each its own chunk (React.lazy). Kept out of
// index.ts, which re-exports them: see README "Web app layout".
export const loadJobDetailScreen = () => import('./screens/JobDetailScreen');
export const loadPostJobScreen = () => import('./screens/PostJobScreen');

/**
 * The job page reads the job on entry, and a worker's own application beside it (the page waits
 * for both): known to be a worker from the role remembered at an earlier sign-in, not from /me,
 * whose answer would otherwise hold the second request back by a round trip (FIRST_READS.jobDetail).
 */
export const jobDetailClientLoader: ClientLoader = (queryClient, api, params) => {
  const { id = '' } = params;
  const reads = FIRST_READS.jobDetail.reads(params, keptSessionRole());
  return Promise.all([
    queryClient.ensureQueryData(jobQueryOptions(api, id)),
    reads.ownApplication ? queryClient.ensureQueryData(ownApplicationQueryOptions(api, id)) : null,
  ]);
};
