import { useQuery } from '@tanstack/react-query';
import type { JobPaymentStart } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** The card step of the caller's own unpaid draft: its existing PaymentIntent (404 for anyone else, 409 once paid). */
export const fetchJobPayment = (api: ApiClient, jobId: string) => api.get<JobPaymentStart>(`/jobs/${encodeURIComponent(jobId)}/payment`);

/** Read when the poster asks to pay, and again every time: a client secret is not kept in the cache. */
export function useJobPayment(jobId: string) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.jobPayment(jobId), queryFn: () => fetchJobPayment(api, jobId), gcTime: 0, retry: false });
}
