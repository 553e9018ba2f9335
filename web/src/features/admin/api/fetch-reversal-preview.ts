import { useQuery } from '@tanstack/react-query';
import type { ReversalPreview } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { ADMIN_QUERY } from './admin-query-keys';

/** What a refund after release would take back from the worker's balance now (Wave 5), before the admin confirms it. */
export const fetchReversalPreview = (api: ApiClient, paymentId: string) => api.get<ReversalPreview>(`/admin/payments/${encodeURIComponent(paymentId)}/reversal`);

/** Read fresh each time the dialog opens: the worker may cash out at any moment. */
export function useReversalPreview(paymentId: string) {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.reversalPreview(paymentId), queryFn: () => fetchReversalPreview(api, paymentId), staleTime: 0, gcTime: 0 });
}
