import type { Application, JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export type ApplicationDecision = 'accept' | 'reject';

/** Accept answers the assigned job; reject the rejected application. */
export const decideApplication = (api: ApiClient, jobId: string, workerId: string, decision: ApplicationDecision) =>
  api.post<JobSummary | Application>(`/jobs/${encodeURIComponent(jobId)}/applications/${encodeURIComponent(workerId)}/${decision}`, {});
