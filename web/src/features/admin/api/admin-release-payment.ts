import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The admin releases a completed job's payment to its worker; the reason goes to the audit log. */
export const adminReleasePayment = (api: ApiClient, jobId: string, reason: string) =>
  api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/release-payment`, { reason });
