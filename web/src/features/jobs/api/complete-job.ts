import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The assigned worker marks the job completed. */
export const completeJob = (api: ApiClient, jobId: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/complete`, {});
