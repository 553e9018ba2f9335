import type { Dispute } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const resolveDispute = (api: ApiClient, disputeId: string, resolution: { templateId: string } | { resolution: string }) =>
  api.post<Dispute>(`/admin/disputes/${encodeURIComponent(disputeId)}/resolve`, resolution);
