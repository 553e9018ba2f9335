/**
 * TODO(shared/messages.ts): payment texts the web needs that MSG.payments does not hold yet.
 * Those quoted by spec 1 §8 are verbatim; "ours" marks texts the specs are silent on. They
 * belong in MSG; until they move there, each is spelled once, here.
 */
export const PAYMENT_TODO_MSG = {
  /** Spec 1 §8 "Card errors": rate_limit_error. */
  tooManyRequests: 'Too many requests. Please wait a moment and try again',
  /** Spec 1 §8 "Card errors": the card was charged but the job could not be opened. */
  paidButJobFailed: 'Payment succeeded but failed to create job. Please contact support.',
  /** Back from Stripe onboarding on /poster-dashboard, /post-job and /dashboard (spec: "a success message"). */
  setupReturned: 'Your payment account setup has been submitted.', // ours
  earningsLoadFailed: 'Failed to load your earnings', // ours
  finishSetupForPayouts: 'Finish your payment setup to see the fast payout options.', // ours
} as const;
