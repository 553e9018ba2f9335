import type { Dispute } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchMyDisputes = (api: ApiClient) => api.get<{ items: Dispute[] }>('/me/disputes');
