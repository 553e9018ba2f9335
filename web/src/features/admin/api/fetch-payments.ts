import type { AdminPaymentRecord, Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchPayments = (api: ApiClient, cursor: string | null) => api.get<Page<AdminPaymentRecord>>('/admin/payments', { cursor });

/** One job's payment (`GET /admin/payments?job=`): what the Jobs tab links a paid job to. */
export const fetchJobPayments = (api: ApiClient, jobId: string) => api.get<Page<AdminPaymentRecord>>('/admin/payments', { job: jobId });
