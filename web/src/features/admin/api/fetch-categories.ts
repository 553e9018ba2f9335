import { useQuery } from '@tanstack/react-query';
import type { CategoryStats } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

export const fetchCategories = (api: ApiClient) => api.get<{ items: CategoryStats[] }>('/admin/categories');

export function useCategories() {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.categories, queryFn: () => fetchCategories(api) });
}
