import { PAYMENT_LIMITS, formatCents, jobPriceQuote, quotePrice, type PriceQuote } from './money.js';

/**
 * Price changes after assignment (issue 45, docs/decisions/0323): the assigned worker asks to
 * change the job's price with a reason, the poster approves or declines, and an approval moves
 * the money first before the job takes the new price — a lower price refunds what the poster
 * paid beyond it (shared/job-process.ts `approvePriceChange`), a higher one charges the
 * difference to the card the job's payment saved, with the card step where the bank asks for
 * it (`raisePrice`). One request waits at a time; none once the job is completed, when the
 * release pays the price agreed by then.
 */

export const PRICE_CHANGE_LABELS = {
  request: 'Request a Price Change',
  send: 'Send Request',
  withdraw: 'Withdraw Request',
  approve: 'Approve Price Change',
  decline: 'Decline Price Change',
} as const;

/** How long a price change's reason (and a poster's reason for declining) may be. */
export const MAX_PRICE_CHANGE_REASON = 500;

/** Where one request ended: `lapsed` when the job moved on (completed, unassigned, cancelled) before the poster answered. */
export type PriceChangeStatus = 'requested' | 'approved' | 'declined' | 'withdrawn' | 'lapsed';

/**
 * Why the assigned worker cannot ask for `amount` on a job priced `job` (its worker's pay), or
 * null: another amount than the price, within the spec's payment limits.
 */
export function priceChangeAmountProblem(amount: number, job: { payment: number }): string | null {
  if (!Number.isInteger(amount) || amount < PAYMENT_LIMITS.minCents) return PRICE_CHANGE_TEXTS.amountTooSmall;
  if (amount > PAYMENT_LIMITS.maxCents) return PRICE_CHANGE_TEXTS.amountTooLarge(formatCents(PAYMENT_LIMITS.maxCents));
  if (amount === job.payment) return PRICE_CHANGE_TEXTS.sameAmount;
  return null;
}

/**
 * A job's price once a change to `amount` is approved: the fee recomputed on it (the one fee
 * rule, shared/money.ts), and what moves of the poster's money — refunded of what they paid
 * for a lower price, charged beyond it for a higher one.
 */
export function priceChangeQuote(amount: number, job: { payment: number; postedAmount: number }): PriceQuote & { refund: number; charge: number; before: PriceQuote } {
  const quote = quotePrice(amount);
  return { ...quote, refund: Math.max(0, job.postedAmount - quote.postedAmount), charge: Math.max(0, quote.postedAmount - job.postedAmount), before: jobPriceQuote(job) };
}

export const PRICE_CHANGE_TEXTS = {
  cardTitle: 'Price',
  reasonLabel: 'Why the price should change',
  amountLabel: 'New price',
  amountHint: (current: string) => `What you would receive, instead of ${current} now.`,
  amountRequired: 'Please enter the new price',
  amountInvalid: 'Please enter an amount in dollars, like 85 or 85.50',
  amountTooSmall: 'The amount must be at least $0.01',
  sameAmount: 'The new price must differ from the current price',
  amountTooLarge: (max: string) => `The amount must be at most ${max}`,
  reasonRequired: 'Please say why the price should change',
  reasonTooLong: `The reason must be at most ${MAX_PRICE_CHANGE_REASON} characters`,
  onlyAssignedWorker: 'Only the assigned worker can request a price change',
  onlyAssigned: 'The price can change only while the job is assigned and not completed',
  onlyPoster: 'Only the job poster can answer a price change',
  alreadyRequested: 'A price change is already waiting for the poster',
  noRequest: 'There is no price change waiting for an answer',
  changedSinceShown: 'This price change is no longer the one you saw. Review it before approving.',
  differenceNotHeld: 'Too little of your payment is left to refund the difference of this price change',
  noSavedCard: 'The card you paid for this job with is no longer saved, so the difference cannot be charged',
  chargedAfterMovedOn: 'The job moved on before the difference was charged, so it was refunded to your card.',
  refundRefused: 'Your payment changed meanwhile (a refund or a bank dispute), so the price was not changed. Please review the job and try again.',
  requested: 'Price change requested. The poster will be notified.',
  withdrawn: 'Your price change request was withdrawn.',
  approved: 'Price change approved. The difference is refunded to your card.',
  approvedCharged: 'Price change approved. The difference was charged to your card.',
  cardNeeded: 'Your bank asks you to confirm the charge of the difference. Confirm it to approve the price change.',
  cardStepTitle: 'Confirm the charge',
  chargeRefused: 'Your card could not be charged the difference. Please check your card and try again.',
  declined: 'Price change declined. The worker will be notified.',
  requestFailed: 'Failed to request the price change',
  answerFailed: 'Failed to answer the price change',
  pendingForWorker: (amount: string) => `You asked to change the price to ${amount}. Waiting for the poster.`,
  pendingForPoster: (worker: string, amount: string) => `${worker} asks to change the price to ${amount}.`,
  approveConfirm: (pay: string, total: string, refund: string) =>
    `Change the price to ${pay}? You pay ${total} in all, the service fee included; ${refund} of what you paid is refunded to your card.`,
  approveRaiseConfirm: (pay: string, total: string, charge: string) =>
    `Change the price to ${pay}? You pay ${total} in all, the service fee included: ${charge} more is charged to the card you paid for this job with.`,
  workerReceives: (amount: string) => `You would receive ${amount}.`,
  historyTitle: 'Price changes',
  historyLoadFailed: 'Failed to load the price changes',
  statusLabels: { requested: 'Waiting for the poster', approved: 'Approved', declined: 'Declined', withdrawn: 'Withdrawn', lapsed: 'Not answered before the job moved on' } satisfies Record<PriceChangeStatus, string>,
  // Notifications
  requestedTitle: 'Price change requested',
  requestedMessage: (worker: string, amount: string, title: string, reason: string) => `${worker} asks to change the price of "${title}" to ${amount}: ${reason}`,
  approvedTitle: 'Price change approved',
  approvedMessage: (amount: string, title: string) => `The poster approved the new price of ${amount} for "${title}".`,
  declinedTitle: 'Price change declined',
  declinedMessage: (title: string, reason: string | null) => `The poster declined your price change for "${title}".${reason ? ` Reason: ${reason}` : ''}`,
  chargedTitle: 'Difference charged',
  chargedMessage: (amount: string, title: string) => `${amount} was charged to your card for "${title}": you approved a higher price.`,
  refundedTitle: 'Difference refunded',
  refundedMessage: (amount: string, title: string) => `${amount} of what you paid for "${title}" was refunded to your card: you approved a lower price.`,
} as const;
