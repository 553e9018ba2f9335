import type { ApiClient } from '../../../lib/api/client';

export const fetchUnreadMessages = (api: ApiClient) => api.get<{ total: number }>('/me/unread-messages');
