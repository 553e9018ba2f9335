import type { AdminPaymentRecord, Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchPayments = (api: ApiClient, cursor: string | null) => api.get<Page<AdminPaymentRecord>>('/admin/payments', { cursor });
