import type { ApiClient } from '../../../lib/api/client';

/** What the admin confirmed of a released payment's reversal: the worker paid, the transfer's amount and what their balance returns of it (cents). */
export interface ReversalConfirmation {
  workerId: string;
  amount: number;
  recover: number;
}

/** The admin refunds a job's payment: held money refunded, or (with `reverse`) released money reversed and refunded. */
export const refundPayment = (api: ApiClient, paymentId: string, reason: string, reverse?: ReversalConfirmation) =>
  api.post<{ refunded: boolean }>(`/admin/payments/${encodeURIComponent(paymentId)}/refund`, reverse ? { reason, reverse } : { reason });
