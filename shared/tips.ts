import { formatCents } from './money.js';

/**
 * Tips (DECISIONS.md "Tips go 100% to the worker, up to the job's payment, within 7 days after
 * release"; docs/decisions/0142-tips-who-when-how-much.md): one per job, charged to the card that paid for the job,
 * transferred to the worker in full.
 */
export const TIP_RULES = {
  /** Stripe's smallest USD charge. */
  minCents: 50,
  windowDays: 7,
  presetPercents: [10, 15, 20],
} as const;

/** A preset tip: the percent of the job's payment, in whole cents. */
export const tipPresetCents = (paymentCents: number, percent: number) => Math.round((paymentCents * percent) / 100);

/** When a job released at `releasedAt` can no longer be tipped. */
export const tipWindowEndsAt = (releasedAt: string) => new Date(Date.parse(releasedAt) + TIP_RULES.windowDays * 86_400_000).toISOString();

/** Why an amount is not a tip for a job paying `paymentCents`, or null when it is one. */
export function tipAmountProblem(amountCents: number, paymentCents: number): string | null {
  if (!Number.isInteger(amountCents) || amountCents < TIP_RULES.minCents) return `The smallest tip is ${formatCents(TIP_RULES.minCents)}.`;
  if (amountCents > paymentCents) return `A tip can be at most the job's payment (${formatCents(paymentCents)}).`;
  return null;
}
