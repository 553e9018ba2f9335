import type { JobCategory } from './categories.js';
import { PAYMENT_LIMITS } from './money.js';

/**
 * The earnings range of a landing category card (spec 1 §1; decision 0317): what most of the
 * category's jobs pay a worker, from the jobs posters actually paid for (every job paid upfront
 * and not refunded by a cancellation). The market-stats rule keeps, per category, how many such
 * jobs fall in each pay band below: counts it can add to and take from as a job moves, where a
 * minimum, maximum or percentile could not be kept. The range runs from the band of the job a
 * tenth of the way up to the band of the job nine tenths up, so one odd job does not stretch it.
 */

/** The lower edges of the pay bands, in cents: ten-dollar steps to $100, then wider as amounts grow. */
export const PAY_BAND_FLOORS: readonly number[] = [
  0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000, 12_500, 15_000, 17_500, 20_000, 25_000, 30_000, 35_000, 40_000, 50_000,
  60_000, 70_000, 80_000, 90_000,
];

/** The band holding a payment: its lower edge. */
export function payBandOf(cents: number): number {
  return PAY_BAND_FLOORS.findLast((floor) => floor <= cents) ?? 0;
}

/** The upper edge of the band whose lower edge is `floor`: the next band's, the largest payment for the last. */
export function payBandCeiling(floor: number): number {
  return PAY_BAND_FLOORS.find((next) => next > floor) ?? PAYMENT_LIMITS.maxCents;
}

/** The attribute of a category's totals item counting its jobs in one band (functions/admin/market-stats.ts). */
export const payBandAttribute = (floor: number): string => `payBand${floor}`;

export interface EarningsRange {
  fromCents: number;
  toCents: number;
}

/** A category's range from its jobs per band (lower edge -> count); null without a job. */
export function earningsRangeOf(jobsPerBand: ReadonlyMap<number, number>): EarningsRange | null {
  const bands = [...jobsPerBand].filter(([, jobs]) => jobs > 0).sort(([a], [b]) => a - b);
  const total = bands.reduce((sum, [, jobs]) => sum + jobs, 0);
  if (total === 0) return null;
  /** The band of the job at a 1-based rank, counted from the lowest payment. */
  const bandAtRank = (rank: number): number => {
    let seen = 0;
    for (const [floor, jobs] of bands) {
      seen += jobs;
      if (seen >= rank) return floor;
    }
    return bands.at(-1)![0];
  };
  return { fromCents: bandAtRank(Math.ceil(total * 0.1)), toCents: payBandCeiling(bandAtRank(Math.ceil(total * 0.9))) };
}

/** One category's range as `GET /categories/earnings` answers it. */
export interface CategoryEarnings {
  category: JobCategory;
  /** Null while no job of the category has been paid for. */
  range: EarningsRange | null;
}

// Whole dollars: band edges are, and a range reads faster without cents.
let wholeDollars: Intl.NumberFormat | undefined;

/** "$40–$70 per job", or the card's text for a category without paid jobs yet. */
export function earningsRangeText(range: EarningsRange | null): string {
  if (!range) return 'No paid jobs yet';
  wholeDollars ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  return `${wholeDollars.format(range.fromCents / 100)}–${wholeDollars.format(range.toCents / 100)} per job`;
}
