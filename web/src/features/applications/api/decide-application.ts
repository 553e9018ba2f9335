import type { AcceptAnswer, Application } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export type ApplicationDecision = 'accept' | 'reject';

/**
 * Accept answers the assigned job (an offer at `amount`, the one the poster confirmed) or, above
 * the budget, the card step the difference's charge waits for; reject the rejected application.
 */
export const decideApplication = (api: ApiClient, jobId: string, workerId: string, decision: ApplicationDecision, amount?: number) =>
  api.post<AcceptAnswer | Application>(`/jobs/${encodeURIComponent(jobId)}/applications/${encodeURIComponent(workerId)}/${decision}`, amount === undefined ? {} : { amount });
