import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARNINGS_WEEKS, earningsByWeek, paidAt, totalEarnings, workerReceived } from '../../shared/money.js';
import { recentPeriods, recentWeeks, weekOf } from '../../shared/series.js';
import { localClock } from '../../functions/notifications/local-clock.js';

const DAY_MS = 86_400_000;
const utcDay = (at: string) => at.slice(0, 10);
/** Any instant between 2020 and 2040. */
const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }).map((time) => new Date(time));

describe("a chart's periods (issue 48)", () => {
  it('are the last 30 UTC days up to today, oldest first, one day apart, across month and year ends', () => {
    expect(recentPeriods('day', 3, new Date('2027-01-01T00:30:00Z'))).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(recentPeriods('day', 2, new Date('2028-03-01T23:59:59Z'))).toEqual(['2028-02-29', '2028-03-01']);
    fc.assert(
      fc.property(instant, (until) => {
        const days = recentPeriods('day', 30, until);
        expect(days).toHaveLength(30);
        expect(days.at(-1)).toBe(until.toISOString().slice(0, 10));
        days.slice(1).forEach((day, i) => expect(Date.parse(day) - Date.parse(days[i]!)).toBe(DAY_MS));
      }),
    );
  });

  it('are the last 12 UTC months up to this one, oldest first, with no month twice or left out', () => {
    expect(recentPeriods('month', 12, new Date('2026-03-31T12:00:00Z'))).toEqual([
      '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03',
    ]);
    fc.assert(
      fc.property(instant, (until) => {
        const months = recentPeriods('month', 12, until);
        expect(months.at(-1)).toBe(until.toISOString().slice(0, 7));
        const index = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
        months.slice(1).forEach((month, i) => expect(index(month) - index(months[i]!)).toBe(1));
      }),
    );
  });

  it('run in weeks from Monday to Sunday, the last one the week of today', () => {
    expect(weekOf('2026-12-07')).toBe('2026-12-07'); // a Monday
    expect(weekOf('2026-12-13')).toBe('2026-12-07'); // the Sunday after
    expect(weekOf('2027-01-02')).toBe('2026-12-28'); // across the year's end
    fc.assert(
      fc.property(instant, (today) => {
        const day = today.toISOString().slice(0, 10);
        const weeks = recentWeeks(EARNINGS_WEEKS, day);
        expect(weeks).toHaveLength(EARNINGS_WEEKS);
        expect(weeks.every((week) => new Date(`${week}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
        expect(weeks.at(-1)! <= day && Date.parse(day) - Date.parse(weeks.at(-1)!) < 7 * DAY_MS).toBe(true);
        weeks.slice(1).forEach((week, i) => expect(Date.parse(week) - Date.parse(weeks[i]!)).toBe(7 * DAY_MS));
      }),
    );
  });
});

describe("a worker's earnings by week (My Earnings' chart)", () => {
  const weeks = recentWeeks(4, '2026-12-10'); // Mondays 2026-11-16 … 2026-12-07
  const job = (at: string, more: object = {}) => ({ status: 'paid', payment: 5000, releasedAt: at, updatedAt: at, ...more });

  it('counts each payment in the week it was paid, its tip in the week the tip was charged, and zero in a week without either', () => {
    const jobs = [
      job('2026-11-16T08:00:00Z'),
      job('2026-11-22T23:00:00Z', { payment: 8000, splitToWorker: 3000 }),
      job('2026-11-30T10:00:00Z', { tip: 700, tippedAt: '2026-12-08T10:00:00Z' }),
      job('2026-12-08T10:00:00Z', { status: 'cancelled' }),
      job('2026-10-01T10:00:00Z', { tip: 400, tippedAt: '2026-12-09T10:00:00Z' }),
    ];
    expect(earningsByWeek(jobs, weeks, utcDay)).toEqual([
      { week: '2026-11-16', payments: 5000 + 3000, tips: 0 },
      { week: '2026-11-23', payments: 0, tips: 0 },
      { week: '2026-11-30', payments: 5000, tips: 0 },
      { week: '2026-12-07', payments: 0, tips: 700 + 400 },
    ]);
  });

  it("places a payment on the worker's own calendar: Sunday night in Los Angeles is Monday in UTC", () => {
    const sundayNight = job('2026-11-30T05:00:00Z'); // 21:00 on Sunday 29 November in Los Angeles
    expect(earningsByWeek([sundayNight], weeks, utcDay).find((week) => week.payments)?.week).toBe('2026-11-30');
    expect(earningsByWeek([sundayNight], weeks, (at) => localClock(new Date(at), 'America/Los_Angeles').day).find((week) => week.payments)?.week).toBe('2026-11-23');
  });

  it('adds up to the total earned of the jobs paid, and tipped, inside the weeks shown', () => {
    const start = Date.parse(`${weeks[0]}T00:00:00Z`);
    const anyJob = fc.record({
      status: fc.constantFrom('paid', 'paid', 'cancelled'),
      payment: fc.integer({ min: 1, max: 100_000 }),
      splitToWorker: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
      tip: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
      paidOffset: fc.integer({ min: -20 * DAY_MS, max: 28 * DAY_MS - 1 }),
      tipDelay: fc.integer({ min: 0, max: 7 * DAY_MS }),
    });
    fc.assert(
      fc.property(fc.array(anyJob, { maxLength: 30 }), (drawn) => {
        const jobs = drawn.map(({ paidOffset, tipDelay, ...rest }) => {
          const at = new Date(start + paidOffset).toISOString();
          return { ...rest, releasedAt: at, updatedAt: at, tippedAt: new Date(start + paidOffset + tipDelay).toISOString() };
        });
        const inside = (at: string) => at >= weeks[0]! && utcDay(at) < new Date(start + 28 * DAY_MS).toISOString().slice(0, 10);
        const byWeek = earningsByWeek(jobs, weeks, utcDay);
        expect(byWeek.map((week) => week.week)).toEqual(weeks);
        expect(byWeek.reduce((sum, week) => sum + week.payments + week.tips, 0)).toBe(
          totalEarnings(jobs.filter((paid) => inside(paidAt(paid))).map((paid) => ({ ...paid, tip: undefined })))
            + jobs.filter((paid) => paid.status === 'paid' && inside(paid.tippedAt)).reduce((sum, paid) => sum + (paid.tip ?? 0), 0),
        );
        expect(byWeek.reduce((sum, week) => sum + week.payments, 0)).toBe(
          jobs.filter((paid) => paid.status === 'paid' && inside(paidAt(paid))).reduce((sum, paid) => sum + workerReceived(paid), 0),
        );
      }),
    );
  });
});
