import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster releases a completed job's payment: answers the paid job. */
export const releasePayment = (api: ApiClient, jobId: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/release-payment`, {});
