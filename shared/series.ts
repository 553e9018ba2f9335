/**
 * The periods a chart's series covers (issue 48): every period in the window, oldest first,
 * whether or not anything happened in it, so the server answers a zero where the table holds no
 * item and every chart and its table show the same number of rows.
 */

const DAY_MS = 86_400_000;

/** The `count` UTC days ("2026-11-26") or months ("2026-11") up to the one `until` falls in, oldest first. */
export function recentPeriods(kind: 'day' | 'month', count: number, until: Date): string[] {
  const [year, month, day] = [until.getUTCFullYear(), until.getUTCMonth(), until.getUTCDate()];
  return Array.from({ length: count }, (_, i) => {
    const back = count - 1 - i;
    const start = kind === 'day' ? Date.UTC(year, month, day - back) : Date.UTC(year, month - back, 1);
    return new Date(start).toISOString().slice(0, kind === 'day' ? 10 : 7);
  });
}

/** The Monday of the week a calendar day (YYYY-MM-DD) is in: weeks run Monday to Sunday (ISO 8601). */
export function weekOf(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  const daysSinceMonday = (new Date(time).getUTCDay() + 6) % 7;
  return new Date(time - daysSinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** The Mondays of the `count` weeks up to the one `today` (YYYY-MM-DD) is in, oldest first. */
export function recentWeeks(count: number, today: string): string[] {
  const thisWeek = Date.parse(`${weekOf(today)}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(thisWeek - (count - 1 - i) * 7 * DAY_MS).toISOString().slice(0, 10));
}
