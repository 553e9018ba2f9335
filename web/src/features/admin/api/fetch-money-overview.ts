import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MoneyOverview, MoneyPeriodKind } from '../../../../../shared/money';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

/** The money overview of one UTC day or month (one counter item on the server). */
export const fetchMoneyOverview = (api: ApiClient, kind: MoneyPeriodKind, period: string) =>
  api.get<MoneyOverview>('/admin/payments/overview', { kind, period });

export function useMoneyOverview(kind: MoneyPeriodKind, period: string) {
  const api = useApi();
  return useQuery({
    queryKey: ADMIN_QUERY.moneyOverview(kind, period),
    queryFn: () => fetchMoneyOverview(api, kind, period),
    placeholderData: keepPreviousData,
  });
}
