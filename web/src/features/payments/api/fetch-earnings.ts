import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Earnings } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** 'My Earnings': the worker's paid jobs, their total and the payment account. */
export const fetchEarnings = (api: ApiClient) => api.get<Earnings>('/me/earnings');

export const earningsQueryOptions = (api: ApiClient) => queryOptions({ queryKey: queryKeys.earnings, queryFn: () => fetchEarnings(api) });

export function useEarnings() {
  return useQuery(earningsQueryOptions(useApi()));
}
