/**
 * Instant Payouts (issue 26): a worker cashes out their Stripe balance to a debit card that takes
 * them, for Stripe's fee. The rules here are shared by the server (which asks Stripe for the
 * payout) and the web app (which shows the fee and the net before the worker confirms).
 */

/** Stripe's US Instant Payout fee: 1.5% of the payout, at least $0.50 (spec: "1.5% fee"). */
export const INSTANT_PAYOUT_FEE_RATE = 0.015;
export const INSTANT_PAYOUT_MIN_FEE_CENTS = 50;

export const instantPayoutFee = (amount: number) => Math.max(INSTANT_PAYOUT_MIN_FEE_CENTS, Math.round(amount * INSTANT_PAYOUT_FEE_RATE));

/**
 * Cashing out a whole instant-available balance: Stripe takes the fee from the balance on top of
 * the payout, so the payout is the largest amount whose fee still fits. Null when the balance
 * cannot cover the minimum fee and a cent.
 */
export function cashOutOf(balance: number): { amount: number; fee: number } | null {
  let amount = Math.max(Math.floor(balance / (1 + INSTANT_PAYOUT_FEE_RATE)), balance - INSTANT_PAYOUT_MIN_FEE_CENTS);
  while (amount > 0 && amount + instantPayoutFee(amount) > balance) amount -= 1;
  return amount > 0 ? { amount, fee: instantPayoutFee(amount) } : null;
}

/**
 * An Instant Payout as the worker's payment records keep it: `pending` from the request until
 * Stripe reports it reached the card (`paid`, payout.paid) or not (`failed`, payout.failed, the
 * money back in the balance).
 */
export interface InstantPayout {
  /** The client's idempotency key of the request that made it. */
  requestKey: string;
  amount: number;
  fee: number;
  status: 'pending' | 'paid' | 'failed';
  /** Stripe's reason, when it failed. */
  failureMessage?: string;
  createdAt: string;
}

/** GET /me/payouts/instant: whether the worker may cash out now, what, and what they did. */
export interface InstantPayoutAvailability {
  /** The worker's payout card takes Instant Payouts. */
  eligible: boolean;
  /** The card's last four digits, when there is a card. */
  cardLast4: string | null;
  /** What Stripe says an Instant Payout may take now, in cents. */
  instantAvailable: number;
  /** Cashing out all of it: the payout and its fee (null when nothing can be cashed out). */
  cashOut: { amount: number; fee: number } | null;
  /** Newest first. */
  payouts: InstantPayout[];
}
