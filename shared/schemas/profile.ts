import { z } from 'zod';
import { MAX_SKILLS } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText, sanitizeText } from '../text.js';

/** A bio that looks like script is refused outright rather than cleaned. */
const SCRIPT_LIKE = /<\s*\/?\s*(script|iframe|object|embed)\b|javascript\s*:|vbscript\s*:|\bon[a-z]+\s*=|\beval\s*\(/i;

const text = (max: number, maxMessage: string) => freeText().pipe(z.string().trim().max(max, maxMessage));

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
    (field) => (PROTECTED_PROFILE_FIELDS as readonly string[]).includes(field) || /^stripe/i.test(field),
  );
}

/**
 * PATCH /me: every field optional; unknown fields are refused. Coordinates and notification
 * preferences have their own routes (PUT /me/location, PUT /me/notification-preferences),
 * which keep the worker's geo index key in line with them.
 */
export const profileUpdateSchema = z
  .object({
    name: freeText().pipe(z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters')),
    bio: z
      .string()
      .refine((bio) => !SCRIPT_LIKE.test(bio), MSG.profile.bioInvalid)
      .transform(sanitizeText)
      .pipe(z.string().trim().max(500, 'Bio must be at most 500 characters')),
    location: text(100, 'Location must be at most 100 characters'),
    skills: z
      .array(freeText().pipe(z.string().trim().max(50, 'Each skill must be at most 50 characters')))
      .transform((skills) => [...new Set(skills.filter((skill) => skill.length > 0))])
      .pipe(z.array(z.string()).max(MAX_SKILLS, MSG.profile.maxSkills)),
    /** The key of an avatar uploaded with a presigned POST, or null to remove it. */
    profileImage: z.string().min(1).max(300).nullable(),
  })
  .partial()
  .strict();

export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
