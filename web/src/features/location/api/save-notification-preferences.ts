import type { NotificationPreferences, OwnProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The preferences, with the browser's zone their quiet hours run in. */
export const saveNotificationPreferences = (api: ApiClient, preferences: NotificationPreferences, timeZone: string) =>
  api.put<OwnProfile>('/me/notification-preferences', { ...preferences, timeZone });
