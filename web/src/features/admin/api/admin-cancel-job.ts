import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const adminCancelJob = (api: ApiClient, jobId: string, reason: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/cancel`, { reason });
