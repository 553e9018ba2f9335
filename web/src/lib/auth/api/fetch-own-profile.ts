import type { OwnProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../api/client';
import { FIRST_READ_PATHS } from '../../api/first-reads';

export const fetchOwnProfile = (api: ApiClient) => api.get<OwnProfile>(FIRST_READ_PATHS.ownProfile);
