import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NotificationPreferences } from '../../shared/api.js';
import { channelsWithDefaults, DAILY_LIMIT_OPTIONS, DEFAULT_NOTIFICATION_PREFERENCES, RADIUS_OPTIONS } from '../../shared/notifications.js';
import { inQuietHours, localClock } from '../../functions/notifications/local-clock.js';
import { DIGEST_LOCAL_TIME, digestDueAt, planDigest, type DigestJob, type PendingDigest } from '../../functions/location/nearby-digest.js';

/** Zones with whole, half and three-quarter hour offsets, both sides of the date line, with and without daylight saving. */
const ZONES = ['UTC', 'America/Chicago', 'America/Los_Angeles', 'Europe/London', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
const HOUR = 3_600_000;
const DAYS = 4;
const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const quietHours = fc.record({ enabled: fc.boolean(), start: fc.integer({ min: 0, max: 1439 }).map(hhmm), end: fc.integer({ min: 0, max: 1439 }).map(hhmm) });
/** A worker, whose quiet hours may change at some hour of the days simulated. */
const worker = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  radiusMiles: fc.constantFrom(...RADIUS_OPTIONS),
  maxPerDay: fc.constantFrom(...DAILY_LIMIT_OPTIONS),
  quietHours,
  laterQuietHours: quietHours,
  changeHour: fc.integer({ min: 0, max: DAYS * 24 }),
});
/** Alerts at minutes over the days simulated, each at some share of the worker's radius (some beyond it). */
const alerts = fc.array(fc.record({ minute: fc.integer({ min: 0, max: DAYS * 24 * 60 - 1 }), radiusShare: fc.double({ min: 0, max: 1.2, noNaN: true }) }), { maxLength: 150, size: 'large' });
/** Any start in 2026, so daylight-saving changes fall inside some runs. */
const start = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) }).map((ms) => new Date(ms - (ms % HOUR)));

/**
 * The store and the hourly run as the handler drives them: an alert appends its job and sets the
 * due time only if none is set; a run reads the digest only once due, sends what planDigest says
 * (taking the jobs out and recording when), drops what it says to drop.
 */
type Quiet = NotificationPreferences['quietHours'];

function simulate(
  given: { timeZone: string; radiusMiles: number; maxPerDay: number; quietHours: Quiet; laterQuietHours: Quiet; changeHour: number },
  arrivals: Array<{ minute: number; radiusShare: number }>,
  from: Date,
  runMinute: number,
) {
  const readerAt = (hour: number) => ({
    timeZone: given.timeZone,
    notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: given.radiusMiles, maxPerDay: given.maxPerDay, quietHours: hour < given.changeHour ? given.quietHours : given.laterQuietHours },
  });
  const byTime = [...arrivals]
    .sort((a, b) => a.minute - b.minute)
    .map((arrival, index) => ({ at: new Date(from.getTime() + arrival.minute * 60_000), miles: arrival.radiusShare * given.radiusMiles, index }));
  let pending: { jobs: DigestJob[]; dueAt?: string; lastSentAt?: string } = { jobs: [] };
  const sent: Array<{ at: Date; jobs: DigestJob[]; quietHours: Quiet }> = [];
  let next = 0;
  for (let hour = 0; hour <= DAYS * 24; hour++) {
    const now = new Date(from.getTime() + hour * HOUR + runMinute * 60_000);
    const reader = readerAt(hour);
    for (; next < byTime.length && byTime[next]!.at <= now; next++) {
      const { at, miles, index } = byTime[next]!;
      pending.jobs.push({ jobId: `job-${index}`, title: `Job ${index}`, location: 'Austin, TX', miles, alertedAt: at.toISOString() });
      pending.dueAt ??= digestDueAt(at, given.timeZone).toISOString();
    }
    if (pending.jobs.length === 0 || Date.parse(pending.dueAt!) > now.getTime()) continue;
    const plan = planDigest(pending as PendingDigest, reader, now);
    if (plan.send) {
      sent.push({ at: now, jobs: plan.jobs, quietHours: reader.notificationPreferences.quietHours });
      pending = { jobs: [], lastSentAt: now.toISOString() };
    } else if (plan.drop) {
      pending = { jobs: [], ...(pending.lastSentAt ? { lastSentAt: pending.lastSentAt } : {}) };
    }
  }
  return { sent, pending, end: new Date(from.getTime() + DAYS * 24 * HOUR + runMinute * 60_000) };
}

describe('nearby-jobs digest (issue 25)', () => {
  it('sends at most one digest per day of the worker’s zone, never in their quiet hours, never more jobs than their daily limit, only jobs within their radius', () => {
    fc.assert(
      fc.property(worker, alerts, start, fc.integer({ min: 0, max: 59 }), (given, arrivals, from, runMinute) => {
        const { sent, pending, end } = simulate(given, arrivals, from, runMinute);
        const days = sent.map(({ at }) => localClock(at, given.timeZone).day);
        expect(new Set(days).size).toBe(days.length);
        for (const digest of sent) {
          expect(inQuietHours(digest.quietHours, localClock(digest.at, given.timeZone).minuteOfDay)).toBe(false);
          expect(digest.jobs.length).toBeGreaterThan(0);
          expect(digest.jobs.length).toBeLessThanOrEqual(given.maxPerDay);
          for (const job of digest.jobs) expect(job.miles).toBeLessThanOrEqual(given.radiusMiles);
        }
        // Without quiet hours nothing in range waits past the digest time after it (a day, plus a daylight-saving hour).
        if (!given.quietHours.enabled && !given.laterQuietHours.enabled) {
          const overdue = pending.jobs.filter((job) => job.miles <= given.radiusMiles && end.getTime() - Date.parse(job.alertedAt) > 26 * HOUR);
          expect(overdue).toEqual([]);
        }
      }),
    );
  });

  it('is due at the digest time of the worker’s own zone, the same evening or the next', () => {
    const at = new Date('2026-03-02T15:30:00Z');
    expect(digestDueAt(at, 'America/Chicago').toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(digestDueAt(at, 'Asia/Kolkata').toISOString()).toBe('2026-03-03T12:30:00.000Z');
    expect(localClock(digestDueAt(at, 'Asia/Kathmandu'), 'Asia/Kathmandu').minuteOfDay).toBe(DIGEST_LOCAL_TIME.hour * 60 + DIGEST_LOCAL_TIME.minute);
  });

  it('drops the waiting jobs of a worker who no longer wants nearby jobs by email, or none of whose jobs is still in range', () => {
    const pending = { jobs: [{ jobId: 'a', title: 'A', location: 'Austin, TX', miles: 4, alertedAt: '2026-03-02T15:00:00.000Z' }], dueAt: '2026-03-02T15:00:00.000Z' };
    const now = new Date('2026-03-02T16:00:00Z');
    const channels = channelsWithDefaults(undefined);
    const emailOff = { ...DEFAULT_NOTIFICATION_PREFERENCES, channels: { ...channels, new_job_nearby: { ...channels.new_job_nearby, email: false } } };
    expect(planDigest(pending, { notificationPreferences: emailOff }, now)).toEqual({ send: false, drop: true, reason: 'not wanted' });
    expect(planDigest(pending, { notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: 3 } }, now)).toEqual({ send: false, drop: true, reason: 'none in range' });
    expect(planDigest(pending, { notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES }, now)).toMatchObject({ send: true });
  });
});
