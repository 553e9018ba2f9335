import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const cancelJob = (api: ApiClient, id: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(id)}/cancel`, {});
