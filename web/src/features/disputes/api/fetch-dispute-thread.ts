import type { DisputeThread } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchDisputeThread = (api: ApiClient, disputeId: string) => api.get<DisputeThread>(`/disputes/${encodeURIComponent(disputeId)}/messages`);
