import type { AppNotification } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const markNotificationRead = (api: ApiClient, id: string) => api.post<AppNotification>(`/me/notifications/${encodeURIComponent(id)}/read`, {});
