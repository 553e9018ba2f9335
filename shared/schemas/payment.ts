import * as z from '../zod.js';
import { adminReasonSchema } from '../admin.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** The body of POST /payments/confirm: the PaymentIntent the browser just confirmed. */
export const confirmPaymentSchema = z.object({ paymentIntentId: z.string().check(z.minLength(1), z.maxLength(255)) });

/**
 * The body of POST /jobs/{id}/release-payment: the poster sends none; the admin releasing
 * someone else's job must give a reason, which the audit log keeps (checked in the domain,
 * which knows whose job it is).
 */
export const releasePaymentSchema = z.object({ reason: z._default(freeText(z.maxLength(500)), '') });

/** The body of POST /admin/payments/{id}/refund. */
export const refundSchema = adminReasonSchema(MSG.payments.refundReasonRequired);
