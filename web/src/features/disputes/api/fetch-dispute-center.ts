import type { DisputeCenterState } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchDisputeCenter = (api: ApiClient, jobId: string) => api.get<DisputeCenterState>(`/jobs/${encodeURIComponent(jobId)}/dispute`);
