import type { AppNotification } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The 50 newest notifications in the spec's order (urgent types first). */
export const fetchNotifications = (api: ApiClient) => api.get<{ items: AppNotification[] }>('/me/notifications');
