import * as z from '../zod.js';
import { adminReasonSchema } from './admin.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';
import { PAYMENT_LIMITS } from '../money.js';

/** The body of POST /payments/confirm: the PaymentIntent the browser just confirmed. */
export const confirmPaymentSchema = z.object({ paymentIntentId: z.string().check(z.minLength(1), z.maxLength(255)) });

/**
 * The body of POST /jobs/{id}/release-payment: the poster sends none; the admin releasing
 * someone else's job must give a reason, which the audit log keeps (checked in the domain,
 * which knows whose job it is).
 */
export const releasePaymentSchema = z.object({ reason: z._default(freeText(z.maxLength(500)), '') });

/**
 * The body of POST /admin/payments/{id}/refund: the reason, and for a payment already released
 * the reversal the admin confirmed in the console — the worker, the amount it showed and what
 * the worker's balance returns of it (DECISIONS.md "Wave 4", "Wave 5": a refund after release
 * only with the worker's transfer reversed as far as their balance allows).
 */
export const refundSchema = z.extend(adminReasonSchema(MSG.payments.refundReasonRequired), {
  reverse: z.optional(
    z.object({
      workerId: z.string().check(z.minLength(1), z.maxLength(64)),
      amount: z.int().check(z.positive(), z.maximum(PAYMENT_LIMITS.maxCents)),
      recover: z.optional(z.int().check(z.minimum(0), z.maximum(PAYMENT_LIMITS.maxCents))),
    }),
  ),
});

/** The body of POST /jobs/{id}/tip: the tip in cents (its limits depend on the job: functions/money/tips.ts). */
export const tipSchema = z.object({ amount: z.int('The tip must be an amount in cents').check(z.positive('The tip must be an amount in cents'), z.maximum(PAYMENT_LIMITS.maxCents, 'The tip must be an amount in cents')) });

/** POST /me/payouts/instant: the payout in cents and the client's key that makes retries one payout. */
export const instantPayoutSchema = z.object({
  amount: z.int(MSG.payouts.invalidAmount).check(z.positive(MSG.payouts.invalidAmount), z.maximum(PAYMENT_LIMITS.maxCents * 100, MSG.payouts.invalidAmount)),
  idempotencyKey: z.string(MSG.payouts.invalidKey).check(z.regex(/^[A-Za-z0-9-]{8,64}$/, MSG.payouts.invalidKey)),
});
