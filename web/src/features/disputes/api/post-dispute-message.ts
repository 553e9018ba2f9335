import type { DisputeMessage } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const postDisputeMessage = (api: ApiClient, disputeId: string, message: string) => api.post<DisputeMessage>(`/disputes/${encodeURIComponent(disputeId)}/messages`, { message });
