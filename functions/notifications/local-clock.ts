/** The user's own clock: the day and minute in their time zone, and their quiet hours (DECISIONS.md "Nearby-job alerts", "Off-site delivery"). */
import type { NotificationPreferences } from '../../shared/api.js';

/** The calendar day (YYYY-MM-DD) and minute of the day at `now` in the zone. */
export function localClock(now: Date, timeZone = 'UTC'): { day: string; minuteOfDay: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the minute falls in the quiet hours; a start after the end spans midnight (22:00–08:00). */
export function inQuietHours(quietHours: NotificationPreferences['quietHours'], minuteOfDay: number): boolean {
  if (!quietHours.enabled) return false;
  const start = minutesOf(quietHours.start);
  const end = minutesOf(quietHours.end);
  if (start === end) return false;
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}

/**
 * How many seconds of quiet hours are left at `now` in the zone (0 outside them): to the end's
 * very minute, not a whole minute past it (zones differ from UTC by whole minutes, so the
 * second of the minute is UTC's). Milliseconds are not counted: the end is never anticipated.
 */
export function quietSecondsLeft(quietHours: NotificationPreferences['quietHours'], now: Date, timeZone = 'UTC'): number {
  const { minuteOfDay } = localClock(now, timeZone);
  if (!inQuietHours(quietHours, minuteOfDay)) return 0;
  const end = minutesOf(quietHours.end);
  return ((end - minuteOfDay + 24 * 60) % (24 * 60)) * 60 - now.getUTCSeconds();
}
