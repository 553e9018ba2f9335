import type { AdminUserSummary } from '../../../../../shared/admin';
import type { Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import type { UsersFilter } from './admin-query-keys';

export const fetchAdminUsers = (api: ApiClient, { q, role, status, verification }: UsersFilter, cursor: string | null) =>
  api.get<Page<AdminUserSummary>>('/admin/users', { q: q || null, role, status, verification, cursor });
