import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

export const fetchAdminUser = (api: ApiClient, userId: string) => api.get<AdminUserDetail>(`/admin/users/${encodeURIComponent(userId)}`);

export function useAdminUser(userId: string) {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.user(userId), queryFn: () => fetchAdminUser(api, userId) });
}
