import * as z from '../zod.js';
import { ACCOUNT_STATUSES, FLAG_TYPES } from '../admin.js';
import { JOB_CATEGORIES } from '../categories.js';
import { IDENTITY_FILTERS } from '../identity.js';
import { MSG } from '../messages.js';
import { ROLES } from '../roles.js';
import { freeText, requiredText } from '../text.js';

// Apart from shared/admin.ts's shapes and rules, which pages outside the console read (the job
// page's report form its flag types): the schemas would bring zod into their first load.

export const reportJobSchema = z.object({
  flagType: z.enum(FLAG_TYPES),
  reason: freeText(z.minLength(1, MSG.flags.reasonRequired), z.maxLength(500)),
  /** A public question on the job reported rather than the job itself (issue 45). */
  questionId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

/** Why an admin action needs a reason: each kind with the spec's text. */
export const adminReasonSchema = (message: string) =>
  z.object({ reason: requiredText(message, z.maxLength(500)) });

/** PUT /admin/categories: hide a category from posting or show it again, with a reason for the audit log. */
export const categoryVisibilitySchema = z.object({
  category: z.enum(JOB_CATEGORIES),
  hidden: z.boolean(),
  reason: requiredText(MSG.admin.categoryReasonRequired, z.maxLength(500)),
});

export const reviewFlagSchema = z.object({
  decision: z.enum(['approved', 'removed']),
  notes: z._default(freeText(z.maxLength(500)), ''),
  /** The reports on one public question of the job: removing removes the question, not the job. */
  questionId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

/** GET /admin/users: a name or email prefix (blank lists everyone by name), a role, a status, the page's cursor. */
export const adminUsersQuerySchema = z.object({
  q: z._default(freeText(z.maxLength(100)), ''),
  role: z.optional(z.enum(ROLES)),
  status: z.optional(z.enum(ACCOUNT_STATUSES)),
  verification: z.optional(z.enum(IDENTITY_FILTERS)),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;

/** POST /admin/users/{id}/suspend, /reinstate, /password-reset: every action on a user needs a reason. */
export const userActionSchema = adminReasonSchema(MSG.admin.userActionReasonRequired);
