import type { NotificationPreferences, OwnProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const saveNotificationPreferences = (api: ApiClient, preferences: NotificationPreferences) =>
  api.put<OwnProfile>('/me/notification-preferences', preferences);
