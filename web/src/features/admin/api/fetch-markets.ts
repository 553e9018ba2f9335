import { useQuery } from '@tanstack/react-query';
import type { MarketStats } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

export const fetchMarkets = (api: ApiClient) => api.get<{ items: MarketStats[] }>('/admin/markets');

export function useMarkets() {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.markets, queryFn: () => fetchMarkets(api) });
}
