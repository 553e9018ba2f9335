import type { OwnProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The browser's coordinates or a zip code, with the browser's time zone (alerts count days in it). */
export const saveLocation = (
  api: ApiClient,
  location: ({ latitude: number; longitude: number } | { zip: string }) & { timeZone: string },
) => api.put<OwnProfile>('/me/location', location);
