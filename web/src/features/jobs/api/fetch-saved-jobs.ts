import { queryOptions } from '@tanstack/react-query';
import type { SavedJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';

/** The worker's saved jobs, newest first. */
export const fetchSavedJobs = (api: ApiClient) => api.get<{ items: SavedJob[] }>('/me/saved-jobs');

export const savedJobsQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: queryKeys.savedJobs, queryFn: async () => (await fetchSavedJobs(api)).items });
