import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';

/** The poster's own jobs, every status. */
export const fetchOwnJobs = (api: ApiClient) => api.get<{ items: JobSummary[] }>('/me/jobs');

export const jobIdOf = (job: JobSummary) => job.id;

export const ownJobsQueryOptions = (api: ApiClient) => queryOptions({ queryKey: queryKeys.ownJobs, queryFn: async () => (await fetchOwnJobs(api)).items });

/**
 * The signed-in user's jobs (a poster's posted ones, a worker's assigned ones), newest first as
 * the API lists them. Live pushes keep the cached list current (useLiveQuerySync).
 */
export function useOwnJobs(): UseQueryResult<JobSummary[]> {
  const api = useApi();
  const { userId } = useAuth();
  return useQuery({ ...ownJobsQueryOptions(api), enabled: userId !== null });
}
