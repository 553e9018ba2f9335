import type { AdminFlaggedJob } from '../../../../../shared/admin';
import type { Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchPendingFlags = (api: ApiClient, cursor: string | null) => api.get<Page<AdminFlaggedJob>>('/admin/flags', { cursor });
