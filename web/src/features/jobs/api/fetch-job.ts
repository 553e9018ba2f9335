import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobDetail } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { FIRST_READ_PATHS } from '../../../lib/api/first-reads';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchJob = (api: ApiClient, id: string) => api.get<JobDetail>(FIRST_READ_PATHS.job(id));

export const jobQueryOptions = (api: ApiClient, id: string) => queryOptions({ queryKey: queryKeys.job(id), queryFn: () => fetchJob(api, id) });

/** The job as its page and its edit panel show it; live pushes read it again (useLiveQuerySync). */
export function useJob(id: string) {
  return useQuery(jobQueryOptions(useApi(), id));
}
