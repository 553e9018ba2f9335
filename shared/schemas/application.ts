import * as z from '../zod.js';
import { MAX_APPLICATION_MESSAGE } from '../limits.js';
import { MSG } from '../messages.js';
import { MAX_OFFER_AVAILABILITY, OFFER_TEXTS } from '../offers.js';
import { PAYMENT_LIMITS } from '../money.js';
import { freeText, requiredText } from '../text.js';

/** Optional free text: a blank one is none. */
const optionalText = (max: number, tooLong: string) => z.pipe(z.nullish(freeText(z.maxLength(max, tooLong))), z.transform((text) => text || null));

/** An amount in cents within the spec's payment limits (the budget's bound is the job's: shared/offers.ts). */
const offerAmount = z.int(OFFER_TEXTS.amountRequired).check(z.minimum(PAYMENT_LIMITS.minCents, OFFER_TEXTS.amountTooSmall), z.maximum(PAYMENT_LIMITS.maxCents, MSG.jobForm.paymentTooLarge));

/**
 * The body of POST /jobs/{id}/applications: an optional message to the poster; on a job open to
 * offers, the offer's amount (required there, refused on a fixed-price job) and when the worker can do it.
 */
export const applySchema = z.object({
  message: optionalText(MAX_APPLICATION_MESSAGE, MSG.applications.messageTooLong),
  amount: z.optional(offerAmount),
  availability: optionalText(MAX_OFFER_AVAILABILITY, OFFER_TEXTS.availabilityTooLong),
});
export type ApplyRequest = z.output<typeof applySchema>;

/** The body of PUT /jobs/{id}/applications/mine: the offer as it now stands. */
export const changeOfferSchema = z.object({
  message: optionalText(MAX_APPLICATION_MESSAGE, MSG.applications.messageTooLong),
  amount: offerAmount,
  availability: optionalText(MAX_OFFER_AVAILABILITY, OFFER_TEXTS.availabilityTooLong),
});
export type ChangeOfferRequest = z.output<typeof changeOfferSchema>;

/** The body of POST /jobs/{id}/applications/{workerId}/accept: on an offer, the amount the poster confirmed (none: as it stands). */
export const acceptOfferSchema = z.object({ amount: z.optional(offerAmount) });

/** The body of POST /jobs/{id}/applications/{workerId}/counter: the poster's one counter-offer. */
export const counterOfferSchema = z.object({ amount: offerAmount });

/** The body of POST /jobs/{id}/applications/mine/counter: the worker's answer. */
export const counterAnswerSchema = z.object({ answer: z.enum(['accept', 'decline']) });
export type CounterAnswer = z.output<typeof counterAnswerSchema>['answer'];

/** The body of POST /jobs/{id}/decline-completion: the feedback the worker receives. */
export const declineCompletionSchema = z.object({
  reason: requiredText(MSG.applications.declineReasonRequired, z.maxLength(1000, MSG.applications.declineReasonTooLong)),
});
export type DeclineCompletionRequest = z.output<typeof declineCompletionSchema>;

/** The body of POST /jobs/{id}/auto-release/pause: the reason the worker sees. */
export const pauseAutoReleaseSchema = z.object({
  reason: requiredText(MSG.payments.autoReleasePauseReasonRequired, z.maxLength(1000, MSG.applications.declineReasonTooLong)),
});
