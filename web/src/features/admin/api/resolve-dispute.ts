import type { Dispute } from '../../../../../shared/api';
import type { ResolveDisputeRequest } from '../../../../../shared/schemas/dispute';
import type { ApiClient } from '../../../lib/api/client';

/** The admin resolves a dispute with a template or their own text, deciding the job's held money or not (`money`). */
export const resolveDispute = (api: ApiClient, disputeId: string, resolution: ResolveDisputeRequest) =>
  api.post<Dispute>(`/admin/disputes/${encodeURIComponent(disputeId)}/resolve`, resolution);
