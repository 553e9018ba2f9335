import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster sends a completed job back to assigned, with feedback for the worker. */
export const declineCompletion = (api: ApiClient, jobId: string, reason: string) =>
  api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/decline-completion`, { reason });
