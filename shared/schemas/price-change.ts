import * as z from '../zod.js';
import { PAYMENT_LIMITS } from '../money.js';
import { MAX_PRICE_CHANGE_REASON, PRICE_CHANGE_TEXTS } from '../price-changes.js';
import { MSG } from '../messages.js';
import { freeText, requiredText } from '../text.js';

/** An amount in cents within the spec's payment limits (the job's own bound: shared/price-changes.ts). */
const priceAmount = z.int(PRICE_CHANGE_TEXTS.amountRequired).check(z.minimum(PAYMENT_LIMITS.minCents, PRICE_CHANGE_TEXTS.amountTooSmall), z.maximum(PAYMENT_LIMITS.maxCents, MSG.jobForm.paymentTooLarge));

/** The body of POST /jobs/{id}/price-change: the assigned worker's new price and why (issue 45). */
export const requestPriceChangeSchema = z.object({
  amount: priceAmount,
  reason: requiredText(PRICE_CHANGE_TEXTS.reasonRequired, z.maxLength(MAX_PRICE_CHANGE_REASON, PRICE_CHANGE_TEXTS.reasonTooLong)),
});
export type RequestPriceChange = z.output<typeof requestPriceChangeSchema>;

/** The body of POST /jobs/{id}/price-change/approve: the amount the poster confirmed. */
export const approvePriceChangeSchema = z.object({ amount: priceAmount });

/** The body of POST /jobs/{id}/price-change/decline: the poster's reason, if they give one. */
export const declinePriceChangeSchema = z.object({
  reason: z.pipe(z.nullish(freeText(z.maxLength(MAX_PRICE_CHANGE_REASON, PRICE_CHANGE_TEXTS.reasonTooLong))), z.transform((text) => text || null)),
});
