import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CategoryEarnings } from '../../../../../shared/earnings-ranges';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchCategoryEarnings = (api: ApiClient) => api.get<{ items: CategoryEarnings[] }>('/categories/earnings');

// The ranges move with whole jobs being paid for: a visit's first answer is current enough.
const CATEGORY_EARNINGS_STALE_MS = 10 * 60_000;

export const categoryEarningsQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: queryKeys.categoryEarnings, queryFn: () => fetchCategoryEarnings(api), staleTime: CATEGORY_EARNINGS_STALE_MS });

/** What each category's jobs pay, for the landing page's cards (decision 0317). */
export function useCategoryEarnings() {
  return useQuery(categoryEarningsQueryOptions(useApi()));
}
