import { useQuery } from '@tanstack/react-query';
import type { MarketAnalytics } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

/** Every market's figures, and the jobs posted on each of the last 30 days. */
export const fetchMarkets = (api: ApiClient) => api.get<MarketAnalytics>('/admin/markets');

export function useMarkets() {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.markets, queryFn: () => fetchMarkets(api) });
}
