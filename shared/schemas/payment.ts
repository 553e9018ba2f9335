import * as z from '../zod.js';
import { adminReasonSchema } from '../admin.js';
import { MSG } from '../messages.js';

/** The body of POST /payments/confirm: the PaymentIntent the browser just confirmed. */
export const confirmPaymentSchema = z.object({ paymentIntentId: z.string().check(z.minLength(1), z.maxLength(255)) });

/** The body of POST /admin/payments/{id}/refund. */
export const refundSchema = adminReasonSchema(MSG.payments.refundReasonRequired);
