import { useQuery } from '@tanstack/react-query';
import type { JobCategory } from '../../../../../shared/categories';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchHiddenCategories = (api: ApiClient) => api.get<{ items: JobCategory[] }>('/categories/hidden');

/** The categories the admin hid from posting (the job form leaves them out; the server refuses them too). */
export function useHiddenCategories() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.hiddenCategories, queryFn: () => fetchHiddenCategories(api) });
}
