import { z } from 'zod';
import { MAX_APPLICATION_MESSAGE } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText, sanitizeText } from '../text.js';

/** The body of POST /jobs/{id}/applications: an optional message to the poster. */
export const applySchema = z.object({
  message: freeText()
    .pipe(z.string().trim().max(MAX_APPLICATION_MESSAGE, MSG.applications.messageTooLong))
    .nullish()
    // A blank message is no message.
    .transform((message) => message || null),
});
export type ApplyRequest = z.output<typeof applySchema>;

/** The body of POST /jobs/{id}/decline-completion: the feedback the worker receives. */
export const declineCompletionSchema = z.object({
  reason: z
    .string(MSG.applications.declineReasonRequired)
    .transform(sanitizeText)
    .pipe(z.string().trim().min(1, MSG.applications.declineReasonRequired).max(1000, MSG.applications.declineReasonTooLong)),
});
export type DeclineCompletionRequest = z.output<typeof declineCompletionSchema>;
