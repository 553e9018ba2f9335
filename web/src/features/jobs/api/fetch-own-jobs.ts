import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster's own jobs, every status. */
export const fetchOwnJobs = (api: ApiClient) => api.get<{ items: JobSummary[] }>('/me/jobs');
