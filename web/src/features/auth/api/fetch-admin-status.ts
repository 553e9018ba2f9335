import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminStatus } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchAdminStatus = (api: ApiClient) => api.get<AdminStatus>('/accounts/admin-status');

export const adminStatusQueryOptions = (api: ApiClient) => queryOptions({ queryKey: queryKeys.adminStatus, queryFn: () => fetchAdminStatus(api) });

/** Whether the one admin seat is taken (the sign-up form then disables the admin option). */
export function useAdminStatus() {
  return useQuery(adminStatusQueryOptions(useApi()));
}
