import { MSG } from '../../../shared/messages';

const relativeTime = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

const RELATIVE_UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "2 hours ago"; "just now" under a minute (and for times a skewed clock puts in the future). */
export function formatRelativeTime(iso: string, now: number): string {
  const seconds = Math.min(0, Math.round((Date.parse(iso) - now) / 1000));
  for (const [unit, unitSeconds] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= unitSeconds) return relativeTime.format(Math.trunc(seconds / unitSeconds), unit);
  }
  return 'just now';
}

// Due dates are calendar days (YYYY-MM-DD): format them in UTC so no time zone shifts the day.
const calendarDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "2025-07-04" -> "July 4, 2025" */
export function formatCalendarDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : calendarDay.format(time);
}

// The charts' formats, made on first use: this module is on every page's first load, charts on few.
let chartFormats: { shortDay: Intl.DateTimeFormat; month: Intl.DateTimeFormat; shortMonth: Intl.DateTimeFormat; compactDollars: Intl.NumberFormat } | undefined;
const chartFormat = () =>
  (chartFormats ??= {
    shortDay: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    month: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    shortMonth: new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }),
    compactDollars: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }),
  });

/** "2025-07-04" -> "Jul 4": a chart's tick. */
export function formatShortDay(day: string): string {
  return chartFormat().shortDay.format(Date.parse(`${day}T00:00:00Z`));
}

/** "2025-07" -> "July 2025" */
export function formatMonth(period: string): string {
  return chartFormat().month.format(Date.parse(`${period}-01T00:00:00Z`));
}

/** "2025-07" -> "Jul": a chart's tick. */
export function formatShortMonth(period: string): string {
  return chartFormat().shortMonth.format(Date.parse(`${period}-01T00:00:00Z`));
}

/** 123456 -> "$1.2K": an amount on a chart's axis, short enough for a phone. */
export function formatCentsCompact(cents: number): string {
  return chartFormat().compactDollars.format(cents / 100);
}

/** Today in the viewer's time zone as YYYY-MM-DD (the minimum of a due-date input). */
export function todayAsCalendarDay(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** At most two initials: "Ada Lovelace" -> "AL", "cher" -> "C". */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/** Average rating with one decimal, or the spec's text when there is none. */
export function formatRating(rating: number | null): string {
  return rating === null ? MSG.reviews.noRatings : rating.toFixed(1);
}

/** "2 days 5 hours", "3 hours 12 minutes", "45 seconds": a countdown's remaining time in its two largest units. */
export function formatCountdown(milliseconds: number): string {
  const parts: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  let rest = Math.max(0, Math.ceil(milliseconds / 1000));
  const amounts = parts.map(([unit, seconds]) => {
    const amount = Math.floor(rest / seconds);
    rest -= amount * seconds;
    return [unit, amount] as const;
  });
  const largest = amounts.findIndex(([, amount]) => amount > 0);
  const first = largest < 0 ? amounts.length - 1 : largest;
  return amounts
    .slice(first, first + 2)
    .filter(([, amount], index) => index === 0 || amount > 0)
    .map(([unit, amount]) => `${amount} ${unit}${amount === 1 ? '' : 's'}`)
    .join(' ');
}

/** A worker's success rate (spec 2 §9) as the dashboard and the profile show it. */
export function formatSuccessRate(percent: number | null): string {
  return percent === null ? 'No jobs yet' : `${percent}%`;
}
