import type { ApiClient } from '../../../lib/api/client';

export const markAllNotificationsRead = (api: ApiClient) => api.post<{ updated: number }>('/me/notifications/read-all', {});
