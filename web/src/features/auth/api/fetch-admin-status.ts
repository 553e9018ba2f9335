import type { AdminStatus } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchAdminStatus = (api: ApiClient) => api.get<AdminStatus>('/accounts/admin-status');
