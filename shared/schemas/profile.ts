import * as z from '../zod.js';
import { MAX_SKILLS } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** A bio that looks like script is refused outright rather than cleaned. */
const SCRIPT_LIKE = /<\s*\/?\s*(script|iframe|object|embed)\b|javascript\s*:|vbscript\s*:|\bon[a-z]+\s*=|\beval\s*\(/i;

/**
 * Fields a user may never set on their own profile. Any attempt is refused with
 * 'Security validation failed for profile update' and recorded as a security event.
 */
export const PROTECTED_PROFILE_FIELDS = [
  'id',
  'email',
  'role',
  'rating',
  'ratingTotal',
  'reviewCount',
  'completedJobs',
  'completed_jobs',
  'createdAt',
] as const;

export function protectedFieldsIn(body: Record<string, unknown>): string[] {
  return Object.keys(body).filter(
    (field) => (PROTECTED_PROFILE_FIELDS as readonly string[]).includes(field) || /^(stripe|identity)/i.test(field),
  );
}

/**
 * PATCH /me: every field optional; unknown fields are refused. Coordinates and notification
 * preferences have their own routes (PUT /me/location, PUT /me/notification-preferences),
 * which keep the worker's geo index key in line with them.
 */
export const profileUpdateSchema = z.partial(
  z.strictObject({
    name: freeText(z.minLength(1, 'Name is required'), z.maxLength(100, 'Name must be at most 100 characters')),
    bio: z.pipe(
      z.string().check(z.refine((bio) => !SCRIPT_LIKE.test(bio), MSG.profile.bioInvalid)),
      freeText(z.maxLength(500, 'Bio must be at most 500 characters')),
    ),
    location: freeText(z.maxLength(100, 'Location must be at most 100 characters')),
    skills: z.pipe(
      z.pipe(
        z.array(freeText(z.maxLength(50, 'Each skill must be at most 50 characters'))),
        z.transform((skills: string[]) => [...new Set(skills.filter((skill) => skill.length > 0))]),
      ),
      z.array(z.string()).check(z.maxLength(MAX_SKILLS, MSG.profile.maxSkills)),
    ),
    /** The key of an avatar uploaded with a presigned POST, or null to remove it. */
    profileImage: z.nullable(z.string().check(z.minLength(1), z.maxLength(300))),
  }),
);

export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/** POST /me/deletion: the password the user re-enters to confirm (Cognito's own limit is 256 characters). */
export const accountDeletionSchema = z.strictObject({
  password: z.string(MSG.accountDeletion.passwordRequired).check(z.minLength(1, MSG.accountDeletion.passwordRequired), z.maxLength(256, MSG.accountDeletion.passwordRequired)),
});
export type AccountDeletionRequest = z.output<typeof accountDeletionSchema>;
