/**
 * The transaction process of a job and its money (issue 34, DECISIONS.md "Wave 4"), declared
 * once as data: the one place to learn every state, every transition, who may take it, what
 * guards it and what it causes. The server writes each transition's source states as the
 * DynamoDB condition of the write that takes it (functions/jobs/job-transitions.ts), so two
 * paths racing each other — a refund and a release, a dispute and an auto-release, a delete and
 * a release — cannot both win; the web app offers only the actions `canPerform` allows.
 *
 * A job has two states: its `status` (the work) and its `money` (what the poster paid). A money
 * transition that calls Stripe is taken in two steps: the decision moves the money to a pending
 * state (`releasing`, `refunding`, `splitting`, `reversing`, `repricing`) in the transaction that checks the
 * guards; Stripe is then called with an idempotency key of the job, and the result is written
 * with its ledger movements (shared/ledger.ts) in the transaction that ends the pending state.
 * A pending state belongs to its one decision: any other action is refused while it lasts, and
 * the same action taken again (a retry, a second click, Stripe's webhook) finishes it.
 *
 * Every transition that calls Stripe is carried out by one executor
 * (functions/money/executor.ts): it writes the decision, makes the calls its `stripe:*`
 * effects declare, then settles with the `ledger:*` movements. Stripe's own moves — a refund
 * made in its dashboard, a card's chargeback — are transitions by `system` too, taken in from
 * Stripe's webhooks; they call nothing.
 */

/**
 * `awaiting_payment` is ours (DECISIONS.md "Money and fees"): a posted job is a draft, seen by
 * its poster only, until the card payment succeeds; an unpaid draft expires after a day.
 */
export const JOB_STATUSES = ['awaiting_payment', 'open', 'assigned', 'completed', 'paid', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Where the poster's payment is (Wave 4 "Money states"). */
export const MONEY_STATES = [
  /** Not paid yet (an unpaid draft). */
  'unpaid',
  /** Paid, in the job's escrow: the only state money may leave from, once. */
  'held',
  /** Pending decisions, each waiting for its Stripe call. */
  'releasing',
  'refunding',
  'splitting',
  'reversing',
  /** An offer under the budget accepted, or a lower price approved (issue 45): the difference being refunded before the job takes the price. */
  'repricing',
  /** A higher price approved (issue 45): the difference being charged to the poster's saved card before the job takes the price. */
  'topping_up',
  /** Final: transferred to the worker, refunded to the poster, or part of each. */
  'released',
  'refunded',
  'split',
  /** A release undone by the admin: the worker's transfer reversed, the poster refunded. */
  'reversed',
  /** Held money the poster's bank disputed (a chargeback): nothing may leave until the bank decides. */
  'frozen',
  /** Final: the bank decided the chargeback for the poster and kept the money. */
  'charged_back',
] as const;
export type MoneyState = (typeof MONEY_STATES)[number];

/** Who takes a transition: the job's two parties, the admin, or the platform itself (webhooks, schedules). */
export type Actor = 'poster' | 'worker' | 'admin' | 'system';

/** Named guards beyond the source states; each is checked in the same write as the states. */
export type Guard =
  /** The worker's Stripe account can receive a transfer (checked before the decision). */
  | 'workerAccountReady'
  /** An auto-release is counting down (not declined, paused or disputed). */
  | 'autoReleaseRunning'
  /** The poster paused the auto-release. */
  | 'autoReleasePaused'
  /** The admin's reason is given (audit log, and told to the parties). */
  | 'reasonGiven'
  /** The admin named the worker and the amount to reverse (a confirmation, not a default). */
  | 'reversalConfirmed'
  /** The payee is the worker of the dispute being resolved, not whoever holds the job now. */
  | 'disputeWorker'
  /** The job's worker is the dispute's worker (a release by a resolution pays the job's worker). */
  | 'disputeWorkerHoldsJob';

/** What a transition causes besides its states. */
export type Effect =
  | 'ledger:charge'
  | 'ledger:transfer'
  | 'ledger:refund'
  | 'ledger:reversal'
  /** What the platform could not recover (a reversal after a cash-out, a chargeback after release): its loss. */
  | 'ledger:loss'
  | 'ledger:chargeback'
  | 'stripe:transfer'
  | 'stripe:refund'
  | 'stripe:reversal'
  /** An unpaid draft's PaymentIntent cancelled (refunded instead, should it have succeeded meanwhile). */
  | 'stripe:cancel'
  /** An off-session charge of the card the job's payment saved: a tip, or a higher price's difference. */
  | 'stripe:charge'
  | 'ledger:tip'
  | 'schedule:auto-release'
  | 'unschedule:auto-release'
  | 'notify:poster'
  | 'notify:worker'
  | 'notify:admin'
  | 'audit-log';

export interface Transition {
  /** Job statuses it may start from. */
  from: readonly JobStatus[];
  /** Money states it may start from. */
  money: readonly MoneyState[];
  /** The status it leads to: `null` removes the job, `'same'` keeps it. */
  to: JobStatus | null | 'same';
  /** The money state it leads to (unchanged when absent). A pending state is finished by `settles`. */
  moneyTo?: MoneyState;
  /** For a pending money state: the final state its Stripe call ends in, and the status then. */
  settles?: { money: MoneyState; status: JobStatus | 'same' };
  by: readonly Actor[];
  guards?: readonly Guard[];
  effects: readonly Effect[];
}

/** Money that can still leave the escrow. */
const HELD: readonly MoneyState[] = ['held'];

export const JOB_PROCESS = {
  /** The card payment succeeded (the webhook or the poster's confirmation, whichever first). */
  pay: { from: ['awaiting_payment'], money: ['unpaid'], to: 'open', moneyTo: 'held', by: ['system', 'poster'], effects: ['ledger:charge'] },
  edit: { from: ['open'], money: HELD, to: 'open', by: ['poster'], effects: [] },
  accept: { from: ['open'], money: HELD, to: 'assigned', by: ['poster'], effects: ['notify:worker'] },
  /**
   * The poster accepts a worker's offer under the budget on a job open to offers (issue 45): the
   * money first — the difference refunded (held -> repricing, the job still open, its offers
   * frozen as they stand) — then, settled, the job assigned at the offer's price as `accept`
   * assigns, the fee recomputed on it. An offer at the budget moves no money: it is `accept`.
   */
  acceptOffer: {
    from: ['open'],
    money: HELD,
    to: 'same',
    moneyTo: 'repricing',
    settles: { money: 'held', status: 'assigned' },
    by: ['poster'],
    effects: ['stripe:refund', 'ledger:refund', 'notify:worker', 'notify:poster'],
  },
  /**
   * The poster approves the assigned worker's price change to less than they paid (issue 45,
   * shared/price-changes.ts): as an accepted offer, the money first — the difference refunded
   * (held -> repricing, the job still assigned, nothing else may move it) — then, settled, the
   * job takes the new price (fee recomputed) that its release pays.
   */
  approvePriceChange: {
    from: ['assigned'],
    money: HELD,
    to: 'same',
    moneyTo: 'repricing',
    settles: { money: 'held', status: 'same' },
    by: ['poster'],
    effects: ['stripe:refund', 'ledger:refund', 'notify:worker', 'notify:poster'],
  },
  /**
   * The poster approves the assigned worker's price change to more than they paid (issue 45):
   * the money first — the difference charged to the card the job's payment saved, off-session
   * (held -> topping_up, nothing else may move it) — then, charged, the job takes the new price
   * and the charge is one more of the job's charges, which every later move of its money spans
   * (a release transfers from each, a refund refunds each). Where the bank wants the poster (the
   * card step) nothing is charged yet: the money is held again at the old price, and the same
   * approval after the card step finishes it.
   */
  raisePrice: {
    from: ['assigned'],
    money: HELD,
    to: 'same',
    moneyTo: 'topping_up',
    settles: { money: 'held', status: 'same' },
    by: ['poster'],
    effects: ['stripe:charge', 'ledger:charge', 'notify:worker', 'notify:poster'],
  },
  /**
   * The poster accepts a worker's offer above the budget (issue 45): the money first — the
   * difference charged to the saved card as `raisePrice` charges it (held -> topping_up, the job
   * still open, its offers frozen as they stand) — then, charged, the job assigned at the offer's
   * price as `accept` assigns. Where the bank wants the poster (the card step) nothing is charged
   * or assigned; the same acceptance after the card step finishes it.
   */
  acceptOfferAbove: {
    from: ['open'],
    money: HELD,
    to: 'same',
    moneyTo: 'topping_up',
    settles: { money: 'held', status: 'assigned' },
    by: ['poster'],
    effects: ['stripe:charge', 'ledger:charge', 'notify:worker', 'notify:poster'],
  },
  unassign: { from: ['assigned'], money: HELD, to: 'open', by: ['poster'], effects: ['notify:worker'] },
  complete: { from: ['assigned'], money: HELD, to: 'completed', by: ['worker'], effects: ['schedule:auto-release', 'notify:poster'] },
  declineCompletion: { from: ['completed'], money: HELD, to: 'assigned', by: ['poster'], effects: ['unschedule:auto-release', 'notify:worker'] },
  /** Wave 3: the poster stops the countdown, with a reason the worker sees... */
  pauseAutoRelease: { from: ['completed'], money: HELD, to: 'same', by: ['poster'], guards: ['autoReleaseRunning'], effects: ['unschedule:auto-release', 'notify:worker'] },
  /** ...and starts it again (at least AUTO_RELEASE_MINIMUM_SECONDS from now). */
  resumeAutoRelease: { from: ['completed'], money: HELD, to: 'same', by: ['poster'], guards: ['autoReleasePaused'], effects: ['schedule:auto-release', 'notify:worker'] },
  /** The worker is paid: by the poster, the admin, the auto-release or a dispute's resolution. */
  release: {
    from: ['completed'],
    money: HELD,
    to: 'same',
    moneyTo: 'releasing',
    settles: { money: 'released', status: 'paid' },
    by: ['poster', 'admin', 'system'],
    guards: ['workerAccountReady'],
    effects: ['stripe:transfer', 'ledger:transfer', 'unschedule:auto-release', 'notify:worker', 'notify:poster'],
  },
  /**
   * The admin pays the poster back in full (from the payments table, or a dispute's resolution):
   * the job is cancelled with the refund's reason, and no release can follow. The poster's cancel
   * and delete and the admin's cancel and delete refund through the same pending state.
   */
  refund: {
    from: ['open', 'assigned', 'completed'],
    money: HELD,
    to: 'cancelled',
    moneyTo: 'refunding',
    settles: { money: 'refunded', status: 'same' },
    by: ['admin'],
    effects: ['stripe:refund', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /**
   * A dispute's resolution: part of what is held to the dispute's worker, the rest refunded to the
   * poster. The refund comes first: it is the call Stripe may refuse (a dashboard refund since),
   * and nothing has moved when it does.
   */
  split: {
    from: ['assigned', 'completed'],
    money: HELD,
    to: 'same',
    moneyTo: 'splitting',
    settles: { money: 'split', status: 'paid' },
    by: ['admin'],
    guards: ['workerAccountReady', 'reasonGiven', 'disputeWorker'],
    effects: ['stripe:refund', 'stripe:transfer', 'ledger:transfer', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /**
   * A split of a dispute filed by a worker who no longer holds the job (unassigned, or the job
   * cancelled since): their part goes to them, the rest back to the poster, and the job — whose
   * money is now gone — is cancelled, its current worker (if any) cleared and told.
   */
  splitWithFormerWorker: {
    from: ['open', 'assigned', 'completed'],
    money: HELD,
    to: 'same',
    moneyTo: 'splitting',
    settles: { money: 'split', status: 'cancelled' },
    by: ['admin'],
    guards: ['workerAccountReady', 'reasonGiven', 'disputeWorker'],
    effects: ['stripe:refund', 'stripe:transfer', 'ledger:transfer', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /**
   * A refund after release: only the admin, confirming the worker, the transfer's amount and what
   * the worker's balance can return (Wave 5): what it cannot (a cash-out since) is the platform's
   * loss and the worker's debt in the ledger. The poster is refunded in full either way.
   */
  reverse: {
    from: ['paid'],
    money: ['released'],
    to: 'same',
    moneyTo: 'reversing',
    settles: { money: 'reversed', status: 'cancelled' },
    by: ['admin'],
    guards: ['reasonGiven', 'reversalConfirmed'],
    effects: ['stripe:reversal', 'stripe:refund', 'ledger:reversal', 'ledger:refund', 'ledger:loss', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /**
   * The poster cancels an assigned job (a refund, above, taken by the poster). The admin may
   * cancel any job not cancelled (spec 2 §4): where money is held the refund decides it.
   */
  cancel: { from: ['assigned'], money: HELD, to: 'cancelled', moneyTo: 'refunding', settles: { money: 'refunded', status: 'same' }, by: ['poster'], effects: ['stripe:refund', 'ledger:refund', 'notify:worker'] },
  adminCancel: {
    from: ['open', 'assigned', 'completed'],
    money: HELD,
    to: 'cancelled',
    moneyTo: 'refunding',
    settles: { money: 'refunded', status: 'same' },
    by: ['admin'],
    guards: ['reasonGiven'],
    effects: ['stripe:refund', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /**
   * The poster deletes a job whose money is not held by work in progress: a draft (its
   * PaymentIntent cancelled), an open job (refunded), or one whose money is settled. A completed
   * job whose money is held is refused ('Job cannot be deleted in its current status'): its money
   * must be decided first.
   */
  delete: {
    from: ['awaiting_payment', 'open', 'paid', 'cancelled'],
    money: ['unpaid', 'held', 'released', 'refunded', 'split', 'reversed', 'charged_back'],
    to: null,
    by: ['poster'],
    effects: ['stripe:cancel', 'stripe:refund', 'ledger:refund'],
  },
  /** The admin deletes any job (spec 2 §4) with a reason; held money is decided in the same step (refunded), and the worker told. */
  adminDelete: {
    from: JOB_STATUSES,
    money: ['unpaid', 'held', 'released', 'refunded', 'split', 'reversed', 'charged_back'],
    to: null,
    by: ['admin'],
    guards: ['reasonGiven'],
    effects: ['stripe:cancel', 'stripe:refund', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /** An unpaid draft a day old (DRAFT_TTL_SECONDS) expires: removed, its PaymentIntent cancelled. */
  expireDraft: { from: ['awaiting_payment'], money: ['unpaid'], to: null, by: ['system'], effects: ['stripe:cancel'] },

  // Stripe's own moves (Wave 5), taken in from its webhooks: they call nothing.

  /**
   * A refund made in Stripe's dashboard of money still held: what is left is held, and a release
   * pays only what remains after the platform's fee. A refund of all of it cancels the job as the
   * admin's refund does (refund, above, by `system`).
   */
  takeInRefund: { from: JOB_STATUSES, money: HELD, to: 'same', by: ['system'], effects: ['ledger:refund', 'notify:poster'] },
  refundedInStripe: {
    from: ['open', 'assigned', 'completed'],
    money: HELD,
    to: 'cancelled',
    moneyTo: 'refunded',
    by: ['system'],
    effects: ['ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker'],
  },
  /** The poster's bank opened a chargeback on held money: frozen until it decides. */
  chargebackOpened: {
    from: JOB_STATUSES,
    money: HELD,
    to: 'same',
    moneyTo: 'frozen',
    by: ['system'],
    effects: ['ledger:chargeback', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'notify:admin'],
  },
  /** The bank decided for the platform: the money is held again, the auto-release given back (as a dispute's resolution without money does). */
  chargebackWon: { from: JOB_STATUSES, money: ['frozen'], to: 'same', moneyTo: 'held', by: ['system'], effects: ['ledger:chargeback', 'notify:poster', 'notify:worker', 'notify:admin'] },
  /** A chargeback on money no longer held (released, split, refunded): the job shows it, and the ledger records what the bank took. */
  recordChargeback: {
    from: JOB_STATUSES,
    money: ['released', 'split', 'refunded', 'reversed', 'frozen', 'charged_back'],
    to: 'same',
    by: ['system'],
    effects: ['ledger:chargeback', 'ledger:loss', 'notify:poster', 'notify:worker', 'notify:admin'],
  },
  /**
   * A job of more than one charge whose chargeback the bank decided for the poster: what its
   * other charges still hold goes back to the poster too, so nothing is stranded in the escrow
   * of a job that can no longer be paid.
   */
  refundRest: {
    from: ['cancelled'],
    money: ['charged_back'],
    to: 'same',
    moneyTo: 'refunding',
    settles: { money: 'refunded', status: 'same' },
    by: ['system'],
    effects: ['stripe:refund', 'ledger:refund', 'notify:poster'],
  },
  /**
   * The bank kept the money: the job cannot be paid and is cancelled. From held money too: Stripe
   * may report the dispute closed before its opening is taken in (its webhooks race), and the
   * money is gone all the same.
   */
  chargebackLost: {
    from: JOB_STATUSES,
    money: ['held', 'frozen'],
    to: 'cancelled',
    moneyTo: 'charged_back',
    by: ['system'],
    effects: ['notify:poster', 'notify:worker', 'notify:admin'],
  },
} as const satisfies Record<string, Transition>;

export type JobAction = keyof typeof JOB_PROCESS;

/** The pending money state of each action that calls Stripe, and the action that owns it. */
export const PENDING_MONEY: Partial<Record<MoneyState, JobAction>> = { releasing: 'release', refunding: 'refund', splitting: 'split', reversing: 'reverse', repricing: 'acceptOffer', topping_up: 'raisePrice' };

/** Whether the job's money waits for a decision's Stripe calls: nothing else may move it, or leave with it (a delete). */
export const isMoneyPending = (job: { status: JobStatus; moneyState?: MoneyState }): boolean => PENDING_MONEY[moneyStateOf(job)] !== undefined;

/**
 * A tip (DECISIONS.md "Wave 3", Wave 5 "Tips in the process"): its own money, on a paid job,
 * with its own states beside the job's. The charge is decided before Stripe is asked for it;
 * where the bank asks the poster (3-D Secure) it waits for the card step; once the charge
 * succeeded, the transfer is decided only while the job's money is still released to a worker
 * who still has an account — otherwise the tip is refunded. Both are Stripe calls of a pending
 * decision, as the job's are.
 */
export const TIP_STATES = [
  /** The off-session charge is decided and being made. */
  'charging',
  /** The bank asked for the poster's card step; nothing is charged until it is done. */
  'awaiting_card',
  /** The charge succeeded; its transfer (or refund) is decided next. */
  'charged',
  /** Pending decisions after the charge succeeded: the worker's transfer, or the poster's refund. */
  'transferring',
  'refunding',
  /** Final. */
  'tipped',
  'refunded',
] as const;
export type TipState = (typeof TIP_STATES)[number];

/** Tip states in which money is on its way: an account deletion or a reversal waits for them. */
export const TIP_IN_FLIGHT: readonly TipState[] = ['charging', 'charged', 'transferring', 'refunding'];

export const TIP_PROCESS = {
  /** The poster tips their paid job's worker within the window (shared/tips.ts). */
  charge: { from: [], to: 'charging', by: ['poster'], guards: ['job paid, money released'], effects: ['stripe:charge'] },
  /** The charge's answer: succeeded, or the bank wants the poster (the tip waits for the card step; the same request after it goes on). */
  charged: { from: ['charging'], to: 'charged', by: ['system'], guards: [], effects: [] },
  cardStep: { from: ['charging'], to: 'awaiting_card', by: ['system'], guards: [], effects: [] },
  /** The charge succeeded (the poster's request, or Stripe's webhook, whichever first) and the job's money is still released to its worker. */
  transfer: { from: ['charged', 'awaiting_card'], to: 'transferring', settles: 'tipped', by: ['poster', 'system'], guards: ['job paid, money released', 'worker account not deleted'], effects: ['stripe:transfer', 'ledger:tip'] },
  /** The charge succeeded after the job's money was reversed, or its worker deleted their account: the poster gets the tip back. */
  refund: { from: ['charged', 'awaiting_card'], to: 'refunding', settles: 'refunded', by: ['system'], guards: [], effects: ['stripe:refund', 'ledger:tip', 'notify:poster'] },
} as const satisfies Record<string, { from: readonly TipState[]; to: TipState; settles?: TipState; by: readonly Actor[]; guards: readonly string[]; effects: readonly Effect[] }>;

/**
 * The money state of a job stored before money states were kept (a deployment's older items):
 * what its status says. Every reader goes through it, and the conditions accept such an item
 * by its status (functions/jobs/job-transitions.ts), so no backfill is needed.
 */
export function moneyStateOf(job: { status: JobStatus; moneyState?: MoneyState }): MoneyState {
  if (job.moneyState) return job.moneyState;
  if (job.status === 'awaiting_payment') return 'unpaid';
  if (job.status === 'paid') return 'released';
  return job.status === 'cancelled' ? 'refunded' : 'held';
}

/** Whether `action` may start from the job's status and money state (the web app's offer; the server's conditions repeat it). */
export function canPerform(action: JobAction, job: { status: JobStatus; moneyState?: MoneyState }): boolean {
  const transition: Transition = JOB_PROCESS[action];
  return transition.from.includes(job.status) && transition.money.includes(moneyStateOf(job));
}

/** Badge text: 'Open', or the raw status (spec 1 §2 "Job card"). */
export function statusBadgeText(status: JobStatus): string {
  if (status === 'open') return 'Open';
  return status === 'awaiting_payment' ? 'awaiting payment' : status;
}

/** How long an unpaid draft is kept before it expires (the retry schedule removes it and cancels its PaymentIntent). */
export const DRAFT_TTL_SECONDS = 24 * 3600;
/** How long after that DynamoDB's TTL may delete a draft the schedule somehow left: a backstop, never the way drafts go. */
export const DRAFT_TTL_BACKSTOP_SECONDS = 3 * 24 * 3600;

/**
 * The least time a resumed auto-release counts down (Wave 4: a resume by the poster, or a
 * dispute resolved without deciding the money, gives the worker's release back "at least 24
 * hours from" then), or the deploy's whole delay when that is shorter (a demo's).
 */
export const AUTO_RELEASE_MINIMUM_SECONDS = 24 * 3600;

/**
 * A worker's success rate (spec 2 §9): their completed and paid jobs over all their jobs, as a
 * whole percent; null while they have none.
 */
export function workerSuccessRate(jobs: ReadonlyArray<{ status: JobStatus }>): number | null {
  if (jobs.length === 0) return null;
  const succeeded = jobs.filter((job) => job.status === 'completed' || job.status === 'paid').length;
  return Math.round((succeeded / jobs.length) * 100);
}
