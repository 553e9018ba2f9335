import { z } from 'zod';
import { DISPUTE_PRIORITIES, DISPUTE_TYPES, MAX_BULK_RESOLVE, MAX_DISPUTE_DESCRIPTION, MAX_DISPUTE_MESSAGE, MAX_RESOLUTION } from '../disputes.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** Free text (cleaned by the one rule), required: not blank once trimmed. */
const requiredText = (required: string, max: number) =>
  z.string(required).pipe(freeText()).pipe(z.string().trim().min(1, required).max(max, MSG.disputes.tooLong));

/** POST /jobs/{id}/dispute: a type and a description that is not blank once trimmed (spec 2 §5). */
export const fileDisputeSchema = z.object({
  type: z.enum(DISPUTE_TYPES, MSG.disputes.fillRequired),
  description: requiredText(MSG.disputes.fillRequired, MAX_DISPUTE_DESCRIPTION),
});
export type FileDisputeRequest = z.output<typeof fileDisputeSchema>;

/** POST /disputes/{id}/messages: non-empty after trim (spec 2 §5). */
export const disputeMessageSchema = z.object({
  message: requiredText(MSG.disputes.messageRequired, MAX_DISPUTE_MESSAGE),
});

export const disputePrioritySchema = z.object({ priority: z.enum(DISPUTE_PRIORITIES, MSG.disputes.invalidPriority) });

/** The admin resolves with a template or with their own text: exactly one of the two. */
export const resolveDisputeSchema = z
  .object({
    templateId: z.string().min(1).optional(),
    resolution: freeText().pipe(z.string().trim().max(MAX_RESOLUTION, MSG.disputes.tooLong)).optional(),
  })
  .refine(({ templateId, resolution }) => Boolean(templateId) !== Boolean(resolution), MSG.disputes.resolutionRequired);
export type ResolveDisputeRequest = z.output<typeof resolveDisputeSchema>;

/** Bulk resolution by template: at least one dispute (spec 2 §5), each named once. */
export const bulkResolveSchema = z.object({
  disputeIds: z
    .array(z.string().min(1), MSG.disputes.selectDisputes)
    .min(1, MSG.disputes.selectDisputes)
    .max(MAX_BULK_RESOLVE, MSG.disputes.tooMany)
    .transform((ids) => [...new Set(ids)]),
  templateId: z.string(MSG.disputes.templateRequired).min(1, MSG.disputes.templateRequired),
});
