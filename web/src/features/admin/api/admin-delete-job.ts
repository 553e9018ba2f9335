import type { ApiClient } from '../../../lib/api/client';

export const adminDeleteJob = (api: ApiClient, jobId: string, reason: string) => api.delete<void>(`/jobs/${encodeURIComponent(jobId)}`, { reason });
