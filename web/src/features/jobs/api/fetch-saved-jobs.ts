import type { SavedJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The worker's saved jobs, newest first. */
export const fetchSavedJobs = (api: ApiClient) => api.get<{ items: SavedJob[] }>('/me/saved-jobs');
