import type { ApiClient } from '../../../lib/api/client';

export const saveJob = (api: ApiClient, jobId: string) => api.put<void>(`/me/saved-jobs/${encodeURIComponent(jobId)}`);
