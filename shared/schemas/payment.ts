import { z } from 'zod';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** The body of POST /payments/confirm: the PaymentIntent the browser just confirmed. */
export const confirmPaymentSchema = z.object({ paymentIntentId: z.string().min(1).max(255) });

/** The body of POST /admin/payments/{id}/refund. */
export const refundSchema = z.object({ reason: freeText().pipe(z.string().trim().min(1, MSG.payments.refundReasonRequired).max(500)) });
