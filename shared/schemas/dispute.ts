import * as z from '../zod.js';
import { DISPUTE_PRIORITIES, DISPUTE_TYPES, MAX_BULK_RESOLVE, MAX_DISPUTE_DESCRIPTION, MAX_DISPUTE_MESSAGE, MAX_RESOLUTION } from '../disputes.js';
import { MSG } from '../messages.js';
import { PAYMENT_LIMITS } from '../money.js';
import { freeText, requiredText } from '../text.js';


/** POST /jobs/{id}/dispute: a type and a description that is not blank once trimmed (spec 2 §5). */
export const fileDisputeSchema = z.object({
  type: z.enum(DISPUTE_TYPES, MSG.disputes.fillRequired),
  description: requiredText(MSG.disputes.fillRequired, z.maxLength(MAX_DISPUTE_DESCRIPTION, MSG.disputes.tooLong)),
});
export type FileDisputeRequest = z.output<typeof fileDisputeSchema>;

/** POST /disputes/{id}/messages: non-empty after trim (spec 2 §5). */
export const disputeMessageSchema = z.object({
  message: requiredText(MSG.disputes.messageRequired, z.maxLength(MAX_DISPUTE_MESSAGE, MSG.disputes.tooLong)),
});

export const disputePrioritySchema = z.object({ priority: z.enum(DISPUTE_PRIORITIES, MSG.disputes.invalidPriority) });

/** The longest id a template or a dispute may have (ours are UUIDs or short names): a longer one names nothing, and is no table key. */
const MAX_ID = 100;

/** The admin resolves with a template or with their own text: exactly one of the two. */
export const resolveDisputeSchema = z
  .object({
    templateId: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_ID, MSG.disputes.templateNotFound))),
    resolution: z.optional(freeText(z.maxLength(MAX_RESOLUTION, MSG.disputes.tooLong))),
    /**
     * What the resolution decides of money still held for the job (DECISIONS.md "Wave 4"):
     * release it to the worker, refund it to the poster, or split it (`toWorker` cents of the
     * payment to the worker, the rest refunded). Without it the money stays held and the
     * auto-release is given back.
     */
    money: z.optional(
      z.discriminatedUnion('decision', [
        z.object({ decision: z.literal('release') }),
        z.object({ decision: z.literal('refund') }),
        z.object({ decision: z.literal('split'), toWorker: z.int().check(z.positive(), z.maximum(PAYMENT_LIMITS.maxCents)) }),
      ]),
    ),
  })
  .check(z.refine(({ templateId, resolution }) => Boolean(templateId) !== Boolean(resolution), MSG.disputes.resolutionRequired));
export type ResolveDisputeRequest = z.output<typeof resolveDisputeSchema>;

/** Bulk resolution by template: at least one dispute (spec 2 §5), each named once. */
export const bulkResolveSchema = z.object({
  disputeIds: z.pipe(
    z.array(z.string().check(z.minLength(1), z.maxLength(MAX_ID, MSG.disputes.notFound)), MSG.disputes.selectDisputes).check(z.minLength(1, MSG.disputes.selectDisputes), z.maxLength(MAX_BULK_RESOLVE, MSG.disputes.tooMany)),
    z.transform((ids: string[]) => [...new Set(ids)]),
  ),
  templateId: z.string(MSG.disputes.templateRequired).check(z.minLength(1, MSG.disputes.templateRequired), z.maxLength(MAX_ID, MSG.disputes.templateNotFound)),
});
