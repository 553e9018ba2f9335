import type { UnreadCount } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchUnreadNotificationCount = (api: ApiClient) => api.get<UnreadCount>('/me/notifications/unread-count');
