import { useQuery } from '@tanstack/react-query';
import type { PendingMoneyDecision } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

/** The money decisions still waiting for their Stripe calls, oldest first (functions/money/executor.ts). */
export const fetchMoneyDecisions = (api: ApiClient) => api.get<{ items: PendingMoneyDecision[] }>('/admin/money/decisions');

export function useMoneyDecisions() {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.moneyDecisions, queryFn: () => fetchMoneyDecisions(api), select: (page) => page.items });
}
