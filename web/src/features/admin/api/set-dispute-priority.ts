import type { Dispute } from '../../../../../shared/api';
import type { DisputePriority } from '../../../../../shared/disputes';
import type { ApiClient } from '../../../lib/api/client';

export const setDisputePriority = (api: ApiClient, disputeId: string, priority: DisputePriority) =>
  api.put<Dispute>(`/admin/disputes/${encodeURIComponent(disputeId)}/priority`, { priority });
