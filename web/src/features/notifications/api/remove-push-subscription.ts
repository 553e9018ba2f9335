import type { ApiClient } from '../../../lib/api/client';

export const removePushSubscription = (api: ApiClient, endpoint: string) => api.delete<void>(`/me/push-subscriptions?endpoint=${encodeURIComponent(endpoint)}`);
