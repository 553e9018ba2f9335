import type { PublicProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchPublicProfile = (api: ApiClient, userId: string) => api.get<PublicProfile>(`/profiles/${encodeURIComponent(userId)}`);
