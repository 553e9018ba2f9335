import { describe, expect, it } from 'vitest';
import ngeohash from 'ngeohash';
import { DEFAULT_NOTIFICATION_PREFERENCES, distanceMiles, EARTH_RADIUS_MILES, RADIUS_OPTIONS } from '../../shared/notifications.js';
import { decideAlert, type AlertCandidate } from '../../functions/location/nearby-alerts.js';
import { inQuietHours, localClock, quietSecondsLeft } from '../../functions/notifications/local-clock.js';
import { COVER_PRECISION } from '../../functions/location/worker-locations.js';
import { coverRanges, pointCell, PARTITION_PRECISION } from '../../functions/lib/geo-cells.js';

const austin = { latitude: 30.2672, longitude: -97.7431 };
const job = { id: 'job-1', title: 'Fix a fence', location: 'Austin, TX', category: 'Home Projects' as const, posterId: 'poster-1' };
/** Moving along a meridian by `miles` (exact on the sphere). */
const north = (miles: number) => ({ latitude: austin.latitude + (miles / EARTH_RADIUS_MILES) * (180 / Math.PI), longitude: austin.longitude });

const worker = (overrides: Partial<AlertCandidate> & { at?: { latitude: number; longitude: number } } = {}): AlertCandidate => ({
  id: 'worker-1',
  ...(overrides.at ?? north(1)),
  timeZone: 'America/Chicago',
  notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES,
  ...overrides,
});

// 15:00 UTC on a winter day is 09:00 in Austin (UTC-6).
const morning = new Date('2026-01-15T15:00:00Z');

describe('nearby-job alert rules', () => {
  it('sends within the radius and not a hair beyond it (great-circle miles)', () => {
    expect(decideAlert(worker({ at: north(4.99) }), job, austin, morning)).toMatchObject({ send: true, day: '2026-01-15' });
    expect(decideAlert(worker({ at: north(5.01) }), job, austin, morning)).toEqual({ send: false, reason: 'out of range' });
    expect(distanceMiles(austin, north(5))).toBeCloseTo(5, 9);
  });

  it('matches categories, where none chosen means all', () => {
    const only = (jobCategories: AlertCandidate['notificationPreferences']['jobCategories']) =>
      worker({ notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, jobCategories } });
    expect(decideAlert(only([]), job, austin, morning).send).toBe(true);
    expect(decideAlert(only(['Home Projects', 'Moving']), job, austin, morning).send).toBe(true);
    expect(decideAlert(only(['Moving']), job, austin, morning)).toEqual({ send: false, reason: 'category' });
  });

  it('skips during quiet hours across midnight, read in the worker’s own zone', () => {
    const quiet = { enabled: true, start: '22:00', end: '08:00' };
    const inZone = (timeZone: string) => worker({ timeZone, notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, quietHours: quiet } });
    const lateUtc = new Date('2026-01-15T05:30:00Z'); // 23:30 in Chicago, 06:30 in Berlin, 21:30 in Los Angeles
    expect(decideAlert(inZone('America/Chicago'), job, austin, lateUtc)).toEqual({ send: false, reason: 'quiet hours' });
    expect(decideAlert(inZone('Europe/Berlin'), job, austin, lateUtc)).toEqual({ send: false, reason: 'quiet hours' });
    expect(decideAlert(inZone('America/Los_Angeles'), job, austin, lateUtc).send).toBe(true);
    expect(inQuietHours(quiet, 8 * 60)).toBe(false);
    expect(inQuietHours(quiet, 7 * 60 + 59)).toBe(true);
    expect(inQuietHours({ ...quiet, enabled: false }, 23 * 60)).toBe(false);
    expect(inQuietHours({ enabled: true, start: '13:00', end: '15:00' }, 14 * 60)).toBe(true);
    expect(inQuietHours({ enabled: true, start: '13:00', end: '15:00' }, 16 * 60)).toBe(false);
    // How long an email is held back: to the end, across midnight too; nothing outside.
    // To the second the hours end, in the user's zone: not a whole minute past it.
    expect(quietSecondsLeft(quiet, new Date('2026-01-15T23:30:00Z'))).toBe((8 * 60 + 30) * 60);
    expect(quietSecondsLeft(quiet, new Date('2026-01-16T07:59:45.900Z'))).toBe(15);
    expect(quietSecondsLeft(quiet, new Date('2026-01-16T13:59:10Z'), 'America/Chicago')).toBe(50);
    expect(quietSecondsLeft(quiet, new Date('2026-01-16T08:00:00Z'))).toBe(0);
    expect(quietSecondsLeft({ ...quiet, enabled: false }, new Date('2026-01-15T23:00:00Z'))).toBe(0);
  });

  it('counts days in the worker’s zone, not in UTC', () => {
    expect(localClock(new Date('2026-01-16T02:00:00Z'), 'America/Chicago')).toEqual({ day: '2026-01-15', minuteOfDay: 20 * 60 });
    expect(localClock(new Date('2026-01-16T02:00:00Z'), 'Asia/Tokyo')).toEqual({ day: '2026-01-16', minuteOfDay: 11 * 60 });
  });

  it('never alerts the poster of the job or a worker who turned alerts off', () => {
    expect(decideAlert(worker({ id: 'poster-1' }), job, austin, morning)).toEqual({ send: false, reason: 'own job' });
    expect(decideAlert(worker({ notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false } }), job, austin, morning).send).toBe(false);
  });
});

describe('geohash cover of a radius', () => {
  it('holds every point within the radius in one of its ranges', () => {
    for (const radius of RADIUS_OPTIONS) {
      const ranges = coverRanges(austin, radius, COVER_PRECISION[radius]);
      for (let bearing = 0; bearing < 360; bearing += 7.5) {
        for (const fraction of [0.3, 0.999]) {
          const [latitude, longitude] = destination(austin, radius * fraction, bearing);
          const cell = pointCell({ latitude, longitude });
          const key = `${cell}#user`;
          const found = ranges.some((range) => range.partitionCell === cell.slice(0, PARTITION_PRECISION) && key >= range.from && key <= range.to);
          expect(found, `${radius} mi at ${bearing}°`).toBe(true);
        }
      }
      expect(ranges.length).toBeLessThanOrEqual(40);
    }
  });

  it('covers little more than the circle itself', () => {
    for (const radius of RADIUS_OPTIONS) {
      const ranges = coverRanges(austin, radius, COVER_PRECISION[radius]);
      // A point well outside (3 × radius) is never read.
      const [latitude, longitude] = destination(austin, radius * 3, 45);
      const key = `${ngeohash.encode(latitude, longitude, 7)}#user`;
      expect(ranges.some((range) => key >= range.from && key <= range.to && range.partitionCell === key.slice(0, 4))).toBe(false);
    }
  });
});

/** The point `miles` away on the initial bearing (degrees), on the sphere. */
function destination(from: { latitude: number; longitude: number }, miles: number, bearingDegrees: number): [number, number] {
  const rad = Math.PI / 180;
  const angular = miles / EARTH_RADIUS_MILES;
  const bearing = bearingDegrees * rad;
  const lat1 = from.latitude * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angular) + Math.cos(lat1) * Math.sin(angular) * Math.cos(bearing));
  const lon2 = from.longitude * rad + Math.atan2(Math.sin(bearing) * Math.sin(angular) * Math.cos(lat1), Math.cos(angular) - Math.sin(lat1) * Math.sin(lat2));
  return [lat2 / rad, lon2 / rad];
}
