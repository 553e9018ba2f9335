import { useQuery } from '@tanstack/react-query';
import type { InstantPayoutAvailability } from '../../../../../shared/payouts';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** Whether the worker can cash out instantly now, what, and their past cash-outs. */
export function useInstantPayouts() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.instantPayouts, queryFn: () => api.get<InstantPayoutAvailability>('/me/payouts/instant') });
}
