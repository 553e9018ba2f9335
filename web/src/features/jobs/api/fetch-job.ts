import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobDetail } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchJob = (api: ApiClient, id: string) => api.get<JobDetail>(`/jobs/${encodeURIComponent(id)}`);

export const jobQueryOptions = (api: ApiClient, id: string) => queryOptions({ queryKey: queryKeys.job(id), queryFn: () => fetchJob(api, id) });

/** The job as its page and its edit panel show it; live pushes read it again (useLiveQuerySync). */
export function useJob(id: string) {
  return useQuery(jobQueryOptions(useApi(), id));
}
