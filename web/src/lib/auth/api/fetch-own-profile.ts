import type { OwnProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../api/client';

export const fetchOwnProfile = (api: ApiClient) => api.get<OwnProfile>('/me');
