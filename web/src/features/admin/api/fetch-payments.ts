import type { Page, PaymentRecord } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchPayments = (api: ApiClient, cursor: string | null) => api.get<Page<PaymentRecord>>('/admin/payments', { cursor });
