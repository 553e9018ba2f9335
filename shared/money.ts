import type { LedgerMovement } from './ledger.js';
import { weekOf } from './series.js';

/**
 * Money rules, in integer cents everywhere (DECISIONS.md "Money and fees").
 * One fee rule for creation, update, display and payment: the platform fee is the larger
 * of 14% of the payment (rounded) and $2; the poster pays payment + fee; the worker
 * receives the whole payment.
 */
export const FEE_CONFIG = {
  posterFeePercent: 14,
  workerFeePercent: 0,
  minimumFeeCents: 200,
  cardFeePercent: 2.9,
  cardFeeFixedCents: 30,
} as const;

export const PAYMENT_LIMITS = { minCents: 1, maxCents: 100_000 } as const;

export interface PriceQuote {
  /** What the worker receives. */
  payment: number;
  platformFee: number;
  /** What the poster pays: payment + platform fee. */
  postedAmount: number;
}

export function platformFeeCents(paymentCents: number): number {
  return Math.max(Math.round((paymentCents * FEE_CONFIG.posterFeePercent) / 100), FEE_CONFIG.minimumFeeCents);
}

export function quotePrice(paymentCents: number): PriceQuote {
  const platformFee = platformFeeCents(paymentCents);
  return { payment: paymentCents, platformFee, postedAmount: paymentCents + platformFee };
}

/**
 * How a stored job's price splits, from its own amounts: the fee it was charged under stays
 * the fee it shows even if FEE_CONFIG changes later.
 */
export function jobPriceQuote(job: { payment: number; postedAmount: number }): PriceQuote {
  return { payment: job.payment, platformFee: job.postedAmount - job.payment, postedAmount: job.postedAmount };
}

/**
 * What a job's escrow holds while its money is held (Wave 5): what the poster paid, less what a
 * refund made in Stripe's dashboard gave back meanwhile.
 */
export const heldAmount = (job: { postedAmount: number; refundedWhileHeld?: number }): number => job.postedAmount - (job.refundedWhileHeld ?? 0);

/**
 * What a release pays the worker: the payment, or — when a partial refund lowered what is held —
 * what remains after the platform's fee; zero when nothing does.
 */
export const releasableAmount = (job: { payment: number; postedAmount: number; refundedWhileHeld?: number }): number =>
  Math.max(0, Math.min(job.payment, heldAmount(job) - (job.postedAmount - job.payment)));

/** The card provider's fee, used by the admin views when a payment row lacks one. */
export function estimatedCardFeeCents(amountCents: number): number {
  return Math.round((amountCents * FEE_CONFIG.cardFeePercent) / 100) + FEE_CONFIG.cardFeeFixedCents;
}

/** The admin's money overview covers one UTC day ("2026-11-26") or one UTC month ("2026-11"). */
export const MONEY_PERIOD_KINDS = ['day', 'month'] as const;
export type MoneyPeriodKind = (typeof MONEY_PERIOD_KINDS)[number];
export const MONEY_PERIOD_PATTERN: Record<MoneyPeriodKind, RegExp> = { day: /^\d{4}-\d{2}-\d{2}$/, month: /^\d{4}-\d{2}$/ };

/** The period of each kind an ISO-8601 UTC timestamp falls in. */
export const moneyPeriodOf = (kind: MoneyPeriodKind, timestamp: string): string => timestamp.slice(0, kind === 'day' ? 10 : 7);

/**
 * What the admin's money overview counts per period (cents, and numbers of payments), all from
 * the ledger's movements (overviewCountersOf): payments taken in the period, refunds made in
 * it, and tips charged in it (their card fees are in cardFees); chargebacks the banks took net of
 * those won back, Stripe's dispute fees net of those returned, and what the platform lost
 * (Wave 5: a chargeback or a dashboard refund after release, a reversal a cash-out left short).
 */
export interface MoneyCounters {
  payments: number;
  gross: number;
  platformFees: number;
  cardFees: number;
  refunds: number;
  refundedAmount: number;
  tips: number;
  chargebacks: number;
  chargebackAmount: number;
  disputeFees: number;
  losses: number;
}

export const NO_MONEY: MoneyCounters = { payments: 0, gross: 0, platformFees: 0, cardFees: 0, refunds: 0, refundedAmount: 0, tips: 0, chargebacks: 0, chargebackAmount: 0, disputeFees: 0, losses: 0 };

/**
 * What one ledger movement adds to its period's counters (spec 2 §9 "Fees in admin views"): a
 * charge is a payment taken, with the platform's fee it includes; card fees, refunds and tips
 * count as they move. Transfers, fees earned at release, reversals and payouts move money a
 * charge already counted.
 */
export function overviewCountersOf(movement: Pick<LedgerMovement, 'kind' | 'amount' | 'platformFee'>): Partial<MoneyCounters> {
  switch (movement.kind) {
    case 'charge':
      return { payments: 1, gross: movement.amount, platformFees: movement.platformFee ?? 0 };
    case 'card_fee':
      return { cardFees: movement.amount };
    case 'refund':
    case 'tip_refund':
      return { refunds: 1, refundedAmount: movement.amount };
    case 'tip_charge':
      return { tips: movement.amount };
    case 'chargeback':
      return { chargebacks: 1, chargebackAmount: movement.amount };
    case 'chargeback_reversal':
      return { chargebackAmount: -movement.amount };
    case 'chargeback_fee':
      return { disputeFees: movement.amount };
    case 'chargeback_fee_return':
      return { disputeFees: -movement.amount };
    case 'platform_loss':
    case 'unrecovered':
      return { losses: movement.amount };
    case 'loss_recovered':
      return { losses: -movement.amount };
    default:
      return {};
  }
}

/** GET /admin/payments/overview: one period's counters and what the spec's formulas make of them. */
export interface MoneyOverview extends MoneyCounters {
  kind: MoneyPeriodKind;
  period: string;
  /** Amount minus platform fee (spec 2 §9 "Fees in admin views"). */
  workerPayouts: number;
  /** Platform fee minus card fee, dispute fees and losses. */
  siteProfit: number;
  /** Site profit as a percent of the total taken, one decimal; null when nothing was taken. */
  profitMarginPercent: number | null;
}

/** How far back the admin's money chart looks (issue 48): the last 30 days, or the last 12 months. */
export const MONEY_SERIES_LENGTH: Record<MoneyPeriodKind, number> = { day: 30, month: 12 };

/** GET /admin/payments/overview/series: the overview of every period of the window, oldest first, zeros where nothing moved. */
export interface MoneySeries {
  kind: MoneyPeriodKind;
  periods: MoneyOverview[];
}

export function moneyOverview(kind: MoneyPeriodKind, period: string, counters: MoneyCounters): MoneyOverview {
  const siteProfit = counters.platformFees - counters.cardFees - counters.disputeFees - counters.losses;
  return {
    kind,
    period,
    ...counters,
    workerPayouts: counters.gross - counters.platformFees,
    siteProfit,
    profitMarginPercent: counters.gross > 0 ? Math.round((siteProfit / counters.gross) * 1000) / 10 : null,
  };
}

/**
 * A worker's total earnings: what their paid jobs paid them (spec 2 §9) — the payment, a
 * dispute's split part of it, or less after a partial refund — with their tips, the one figure
 * every earnings view shows.
 */
export function totalEarnings(jobs: ReadonlyArray<{ status: string; payment: number; splitToWorker?: number; transferredAmount?: number; tip?: number }>): number {
  return jobs.filter((job) => job.status === 'paid').reduce((sum, job) => sum + workerReceived(job) + (job.tip ?? 0), 0);
}

/** What the worker was paid for a job: the transfer made (a split's part, or less after a partial refund), else the payment. */
export const workerReceived = (job: { payment: number; splitToWorker?: number; transferredAmount?: number }): number => job.transferredAmount ?? job.splitToWorker ?? job.payment;

/** When a paid job's money went to its worker: its release (a job paid before releases were timed: its last change). */
export const paidAt = (job: { releasedAt?: string; updatedAt: string }): string => job.releasedAt ?? job.updatedAt;

/** My Earnings' chart (issue 48): what the worker received in each of the last 12 weeks. */
export const EARNINGS_WEEKS = 12;

/** One week of a worker's earnings: its Monday (in the worker's time zone) and what their paid jobs and tips brought in it, in cents. */
export interface EarningsWeek {
  week: string;
  payments: number;
  tips: number;
}

/**
 * What the worker received in each week (`weeks`: their Mondays, oldest first): each paid job's
 * payment in the week it was paid, its tip in the week the tip was charged, on the worker's
 * calendar (`localDay`: the day a timestamp falls on in their zone). A week without either is zero.
 */
export function earningsByWeek(
  jobs: ReadonlyArray<{ status: string; payment: number; splitToWorker?: number; transferredAmount?: number; tip?: number; tippedAt?: string; releasedAt?: string; updatedAt: string }>,
  weeks: readonly string[],
  localDay: (timestamp: string) => string,
): EarningsWeek[] {
  const byWeek = new Map(weeks.map((week) => [week, { week, payments: 0, tips: 0 }]));
  for (const job of jobs.filter((candidate) => candidate.status === 'paid')) {
    const paid = byWeek.get(weekOf(localDay(paidAt(job))));
    if (paid) paid.payments += workerReceived(job);
    const tipped = job.tip ? byWeek.get(weekOf(localDay(job.tippedAt ?? paidAt(job)))) : undefined;
    if (tipped) tipped.tips += job.tip ?? 0;
  }
  return [...byWeek.values()];
}

// Created on first use: the first Intl formatter of a process loads ICU's locale data (~13 ms),
// which every function bundling this module would otherwise pay at cold start.
let dollars: Intl.NumberFormat | undefined;

/** 1234 -> "$12.34" */
export function formatCents(cents: number): string {
  dollars ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return dollars.format(cents / 100);
}

/** 1234 -> "12.34": an amount as the messages that say "<amount> USD" write it (shared/messages.ts). */
export const formatUsdAmount = (cents: number): string => (cents / 100).toFixed(2);

/** The payment input accepts only digits with up to two decimals. */
export const DOLLAR_INPUT_PATTERN = /^\d+(\.\d{0,2})?$/;

/** "12.5" -> 1250; null when the text is not a dollar amount. */
export function dollarsToCents(text: string): number | null {
  const trimmed = text.trim();
  if (!DOLLAR_INPUT_PATTERN.test(trimmed)) return null;
  return Math.round(Number(trimmed) * 100);
}
