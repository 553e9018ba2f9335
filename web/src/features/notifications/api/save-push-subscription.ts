import type { PushSubscriptionInput } from '../../../../../shared/schemas/push';
import type { ApiClient } from '../../../lib/api/client';

export const savePushSubscription = (api: ApiClient, subscription: PushSubscriptionInput) => api.put<void>('/me/push-subscriptions', subscription);
