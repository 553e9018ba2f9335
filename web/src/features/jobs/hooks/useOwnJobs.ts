import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { JobSummary } from '../../../../../shared/api';
import { fetchOwnJobs } from '../api/fetch-own-jobs';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';

export const jobIdOf = (job: JobSummary) => job.id;

/**
 * The signed-in user's jobs (a poster's posted ones, a worker's assigned ones), newest first as
 * the API lists them. Live pushes keep the cached list current (useLiveQuerySync).
 */
export function useOwnJobs(): UseQueryResult<JobSummary[]> {
  const api = useApi();
  const { userId } = useAuth();
  return useQuery({ queryKey: queryKeys.ownJobs, queryFn: async () => (await fetchOwnJobs(api)).items, enabled: userId !== null });
}
