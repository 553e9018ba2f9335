import * as z from '../zod.js';
import { JOB_CATEGORIES, type JobCategory } from '../categories.js';
import { MSG } from '../messages.js';
import { NOTIFICATION_TYPES } from '../api.js';
import { DAILY_LIMIT_OPTIONS, RADIUS_OPTIONS } from '../notifications.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const oneOf = <T extends readonly number[]>(options: T, message: string) =>
  z.number().check(z.refine((value) => (options as readonly number[]).includes(value), message));

const clockTime = z.string().check(z.regex(HH_MM, MSG.location.timeFormat));

/** One type's channels (push reaches the browsers the user turned push on in: /me/push-subscriptions). */
const channelChoices = z.strictObject({ inApp: z.boolean(), email: z.boolean(), push: z.boolean() });

/** An IANA zone name the runtime knows ("America/Chicago"); alerts count days and quiet hours in it. */
const timeZone = z.string().check(
  z.refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, MSG.location.timeZoneInvalid),
);

/**
 * PUT /me/notification-preferences (spec 2 §5): the allowed radius and limit choices only;
 * `channels` for the types given (the rest keep what the user has), absent for none.
 */
export const notificationPreferencesSchema = z.strictObject({
  enabled: z.boolean(),
  radiusMiles: oneOf(RADIUS_OPTIONS, MSG.location.radiusChoice),
  maxPerDay: oneOf(DAILY_LIMIT_OPTIONS, MSG.location.dailyLimitChoice),
  quietHours: z.strictObject({ enabled: z.boolean(), start: clockTime, end: clockTime }),
  jobCategories: z.pipe(z.array(z.enum(JOB_CATEGORIES)), z.transform((categories: JobCategory[]) => [...new Set(categories)])),
  channels: z.optional(z.partialRecord(z.enum(NOTIFICATION_TYPES), channelChoices)),
  /** The browser's zone, which quiet hours keep (every role's: a poster has no location to bring one). */
  timeZone: z.optional(timeZone),
});

/** PUT /me/location with the browser's coordinates. */
export const coordinatesUpdateSchema = z.strictObject({
  latitude: z.number().check(z.minimum(-90), z.maximum(90)),
  longitude: z.number().check(z.minimum(-180), z.maximum(180)),
  timeZone,
});

/** PUT /me/location with a zip code to geocode (spec 2 §5: non-empty). */
export const zipUpdateSchema = z.strictObject({ zip: z.string().check(z.trim(), z.regex(/^\d{5}$/, MSG.location.invalidZip)), timeZone });

