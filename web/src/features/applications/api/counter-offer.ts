import type { Application } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster's one counter-offer on a worker's waiting offer (issue 45). */
export const counterOffer = (api: ApiClient, jobId: string, workerId: string, amount: number) =>
  api.post<Application>(`/jobs/${encodeURIComponent(jobId)}/applications/${encodeURIComponent(workerId)}/counter`, { amount });
