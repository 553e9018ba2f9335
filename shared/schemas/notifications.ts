import { z } from 'zod';
import { JOB_CATEGORIES } from '../categories.js';
import { MSG } from '../messages.js';
import { DAILY_LIMIT_OPTIONS, RADIUS_OPTIONS } from '../notifications.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const oneOf = <T extends readonly number[]>(options: T, message: string) =>
  z.number().refine((value) => (options as readonly number[]).includes(value), message);

/** PUT /me/notification-preferences (spec 2 §5): the allowed radius and limit choices only. */
export const notificationPreferencesSchema = z
  .object({
    enabled: z.boolean(),
    radiusMiles: oneOf(RADIUS_OPTIONS, MSG.location.radiusChoice),
    maxPerDay: oneOf(DAILY_LIMIT_OPTIONS, MSG.location.dailyLimitChoice),
    quietHours: z.object({ enabled: z.boolean(), start: z.string().regex(HH_MM, MSG.location.timeFormat), end: z.string().regex(HH_MM, MSG.location.timeFormat) }).strict(),
    jobCategories: z.array(z.enum(JOB_CATEGORIES)).transform((categories) => [...new Set(categories)]),
  })
  .strict();

/** An IANA zone name the runtime knows ("America/Chicago"); alerts count days and quiet hours in it. */
const timeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, MSG.location.timeZoneInvalid);

/** PUT /me/location with the browser's coordinates. */
export const coordinatesUpdateSchema = z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180), timeZone }).strict();

/** PUT /me/location with a zip code to geocode (spec 2 §5: non-empty). */
export const zipUpdateSchema = z.object({ zip: z.string().trim().regex(/^\d{5}$/, MSG.location.invalidZip), timeZone }).strict();

