import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MoneyPeriodKind, MoneySeries } from '../../../../../shared/money';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

/** The money overview of each of the last 30 days or 12 months, oldest first (one query on the server). */
export const fetchMoneySeries = (api: ApiClient, kind: MoneyPeriodKind) => api.get<MoneySeries>('/admin/payments/overview/series', { kind });

export const moneySeriesQueryOptions = (api: ApiClient, kind: MoneyPeriodKind) =>
  queryOptions({ queryKey: ADMIN_QUERY.moneySeries(kind), queryFn: () => fetchMoneySeries(api, kind), placeholderData: keepPreviousData });

export function useMoneySeries(kind: MoneyPeriodKind) {
  return useQuery(moneySeriesQueryOptions(useApi(), kind));
}
