import { z } from 'zod';
import { adminReasonSchema } from '../admin.js';
import { MSG } from '../messages.js';

/** The body of POST /payments/confirm: the PaymentIntent the browser just confirmed. */
export const confirmPaymentSchema = z.object({ paymentIntentId: z.string().min(1).max(255) });

/** The body of POST /admin/payments/{id}/refund. */
export const refundSchema = adminReasonSchema(MSG.payments.refundReasonRequired);
