import * as z from '../zod.js';
import { MAX_APPLICATION_MESSAGE } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText, requiredText } from '../text.js';

/** The body of POST /jobs/{id}/applications: an optional message to the poster. */
export const applySchema = z.object({
  // A blank message is no message.
  message: z.pipe(z.nullish(freeText(z.maxLength(MAX_APPLICATION_MESSAGE, MSG.applications.messageTooLong))), z.transform((message) => message || null)),
});
export type ApplyRequest = z.output<typeof applySchema>;

/** The body of POST /jobs/{id}/decline-completion: the feedback the worker receives. */
export const declineCompletionSchema = z.object({
  reason: requiredText(MSG.applications.declineReasonRequired, z.maxLength(1000, MSG.applications.declineReasonTooLong)),
});
export type DeclineCompletionRequest = z.output<typeof declineCompletionSchema>;

/** The body of POST /jobs/{id}/auto-release/pause: the reason the worker sees. */
export const pauseAutoReleaseSchema = z.object({
  reason: requiredText(MSG.payments.autoReleasePauseReasonRequired, z.maxLength(1000, MSG.applications.declineReasonTooLong)),
});
