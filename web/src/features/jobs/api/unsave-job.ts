import type { ApiClient } from '../../../lib/api/client';

export const unsaveJob = (api: ApiClient, jobId: string) => api.delete<void>(`/me/saved-jobs/${encodeURIComponent(jobId)}`);
