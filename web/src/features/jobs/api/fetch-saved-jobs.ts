import { queryOptions } from '@tanstack/react-query';
import type { SavedJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { FIRST_READ_PATHS } from '../../../lib/api/first-reads';
import { queryKeys } from '../../../lib/api/query-keys';

/** The worker's saved jobs, newest first. */
export const fetchSavedJobs = (api: ApiClient) => api.get<{ items: SavedJob[] }>(FIRST_READ_PATHS.savedJobs);

export const savedJobsQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: queryKeys.savedJobs, queryFn: async () => (await fetchSavedJobs(api)).items });
