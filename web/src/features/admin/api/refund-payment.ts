import type { ApiClient } from '../../../lib/api/client';

export const refundPayment = (api: ApiClient, paymentId: string, reason: string) =>
  api.post<{ refunded: boolean }>(`/admin/payments/${encodeURIComponent(paymentId)}/refund`, { reason });
