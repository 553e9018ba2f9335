import { PAYMENT_LIMITS, formatCents, quotePrice, type PriceQuote } from './money.js';

/**
 * Offers (issue 45, docs/decisions/0321): a job "Open to offers" shows its payment as a budget;
 * a worker applies with an offer (an amount, a message, when they can do it), may change or
 * withdraw it while it waits, and the poster may counter it once. Accepting an offer assigns
 * the job at the offer's amount: the money the poster paid for the budget follows it through
 * the process (shared/job-process.ts `acceptOffer`).
 */

/** The labels the screens use (issue 45). */
export const OFFER_LABELS = {
  fixedPrice: 'Fixed price',
  openToOffers: 'Open to offers',
  makeOffer: 'Make an Offer',
  changeOffer: 'Change Offer',
  withdrawOffer: 'Withdraw Offer',
  acceptOffer: 'Accept Offer',
  counterOffer: 'Counter Offer',
  acceptCounter: 'Accept Counter-offer',
  declineCounter: 'Decline Counter-offer',
} as const;

/** How long "when I can do it" may be. */
export const MAX_OFFER_AVAILABILITY = 200;

/**
 * Why `amount` cannot be offered (or countered), or null: the spec's payment limits. The poster
 * paid the budget when posting: an offer under it is paid from what is held and the rest
 * refunded, one above it charges the difference to their saved card (decisions 0321, 0324).
 */
export function offerAmountProblem(amount: number): string | null {
  if (!Number.isInteger(amount) || amount < PAYMENT_LIMITS.minCents) return OFFER_TEXTS.amountTooSmall;
  if (amount > PAYMENT_LIMITS.maxCents) return OFFER_TEXTS.amountTooLarge(formatCents(PAYMENT_LIMITS.maxCents));
  return null;
}

/**
 * A job's price once an offer of `amount` is accepted: the fee recomputed on it (the one fee
 * rule, shared/money.ts), and what moves of the poster's money — refunded of what they paid for
 * the budget, or charged beyond it.
 */
export function offerPrice(amount: number, paid: { postedAmount: number }): PriceQuote & { refund: number; charge: number } {
  const quote = quotePrice(amount);
  return { ...quote, refund: Math.max(0, paid.postedAmount - quote.postedAmount), charge: Math.max(0, quote.postedAmount - paid.postedAmount) };
}

/** A counter-offer's life: the poster's amount, waiting for the worker, then taken or not. */
export type CounterStatus = 'pending' | 'accepted' | 'declined';

export const OFFER_TEXTS = {
  amountRequired: 'Please enter the amount you offer',
  amountTooSmall: 'The amount must be at least $0.01',
  amountTooLarge: (max: string) => `The amount must be at most ${max}`,
  notOpenToOffers: 'This job has a fixed price',
  notAnOffer: 'This application is not an offer',
  budgetHint: 'The budget workers see. You pay it now; an offer you accept for less is refunded the difference, one for more is charged the difference to your card.',
  budget: (amount: string) => `Budget ${amount}`,
  offerSent: 'Offer sent! The job poster will be notified.',
  offerChanged: 'Your offer was changed.',
  offerWithdrawn: 'Your offer was withdrawn.',
  offerAccepted: 'Offer accepted! The job has been assigned and other workers have been notified.',
  counterSent: 'Counter-offer sent. The worker will be notified.',
  counterAccepted: 'You accepted the counter-offer. The poster can now accept your offer.',
  counterDeclined: 'You declined the counter-offer. Your offer stands.',
  counterAlreadyMade: 'You have already made a counter-offer to this worker',
  counterSameAmount: 'A counter-offer must name another amount than the offer',
  noCounter: 'There is no counter-offer waiting for your answer',
  counterWaiting: 'Answer the counter-offer before changing your offer',
  offerChangedSinceShown: 'This offer changed since you saw it. Review it before accepting.',
  differenceNotHeld: 'Too little of your payment is left to refund the difference of this offer',
  refundRefused: 'Your payment changed meanwhile (a refund or a bank dispute), so the offer was not accepted. Please review the job and try again.',
  acceptFailed: 'Failed to accept the offer',
  withdrawFailed: 'Failed to withdraw the offer',
  changeFailed: 'Failed to change the offer',
  counterFailed: 'Failed to send the counter-offer',
  answerFailed: 'Failed to answer the counter-offer',
  availabilityTooLong: `When you can do it must be at most ${MAX_OFFER_AVAILABILITY} characters`,
  acceptConfirm: (worker: string, pay: string, total: string, refund: string | null) =>
    `Assign the job to ${worker} for their offer of ${pay}? You pay ${total} in all, the service fee included${refund ? `; the other ${refund} of what you paid is refunded to your card` : ''}.`,
  acceptAboveConfirm: (worker: string, pay: string, total: string, charge: string) =>
    `Assign the job to ${worker} for their offer of ${pay}? You pay ${total} in all, the service fee included: ${charge} more is charged to the card you paid for this job with.`,
  cardNeeded: 'Your bank asks you to confirm the charge of the difference. Confirm it to accept the offer.',
  cardStepTitle: 'Confirm the charge',
  chargeRefused: 'Your card could not be charged the difference. Please check your card and try again.',
  noSavedCard: 'The card you paid for this job with is no longer saved, so the difference cannot be charged',
  chargedTitle: 'Difference charged',
  chargedMessage: (amount: string, title: string) => `${amount} was charged to your card for "${title}": you accepted an offer above the budget.`,
  chargedAfterMovedOn: 'The offer was no longer open when the difference was charged, so it was refunded to your card.',
  // Notifications
  receivedTitle: 'New offer',
  receivedMessage: (worker: string, amount: string, title: string) => `${worker} offered ${amount} for "${title}".`,
  changedTitle: 'Offer changed',
  changedMessage: (worker: string, amount: string, title: string) => `${worker} changed their offer for "${title}" to ${amount}.`,
  withdrawnTitle: 'Offer withdrawn',
  withdrawnMessage: (worker: string, title: string) => `${worker} withdrew their offer for "${title}".`,
  counterTitle: 'Counter-offer',
  counterMessage: (amount: string, title: string) => `The poster of "${title}" proposes ${amount}. Accept or decline it on the job's page.`,
  counterAcceptedTitle: 'Counter-offer accepted',
  counterAcceptedMessage: (worker: string, amount: string, title: string) => `${worker} accepted your counter-offer of ${amount} for "${title}".`,
  counterDeclinedTitle: 'Counter-offer declined',
  counterDeclinedMessage: (worker: string, title: string) => `${worker} declined your counter-offer for "${title}"; their offer stands.`,
  acceptedTitle: 'Offer accepted',
  acceptedMessage: (amount: string, title: string) => `Your offer of ${amount} for "${title}" was accepted. The job is yours.`,
  declinedTitle: 'Offer not chosen',
  declinedMessage: (title: string) => `The poster of "${title}" chose another offer or declined yours.`,
  refundedTitle: 'Difference refunded',
  refundedMessage: (amount: string, title: string) => `${amount} of what you paid for "${title}" was refunded to your card: you accepted an offer under the budget.`,
} as const;
