/**
 * The transaction process of a job and its money (issue 34, DECISIONS.md "Wave 4"), declared
 * once as data: the one place to learn every state, every transition, who may take it, what
 * guards it and what it causes. The server writes each transition's source states as the
 * DynamoDB condition of the write that takes it (functions/domain/job-transitions.ts), so two
 * paths racing each other — a refund and a release, a dispute and an auto-release, a delete and
 * a release — cannot both win; the web app offers only the actions `canPerform` allows.
 *
 * A job has two states: its `status` (the work) and its `money` (what the poster paid). A money
 * transition that calls Stripe is taken in two steps: the decision moves the money to a pending
 * state (`releasing`, `refunding`, `splitting`, `reversing`) in the transaction that checks the
 * guards; Stripe is then called with an idempotency key of the job, and the result is written
 * with its ledger movements (shared/ledger.ts) in the transaction that ends the pending state.
 * A pending state belongs to its one decision: any other action is refused while it lasts, and
 * the same action taken again (a retry, a second click, Stripe's webhook) finishes it.
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
  /** Final: transferred to the worker, refunded to the poster, or part of each. */
  'released',
  'refunded',
  'split',
  /** A release undone by the admin: the worker's transfer reversed, the poster refunded. */
  'reversed',
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
  | 'reversalConfirmed';

/** What a transition causes besides its states. */
export type Effect =
  | 'ledger:charge'
  | 'ledger:transfer'
  | 'ledger:refund'
  | 'ledger:reversal'
  | 'stripe:transfer'
  | 'stripe:refund'
  | 'stripe:reversal'
  | 'schedule:auto-release'
  | 'unschedule:auto-release'
  | 'notify:poster'
  | 'notify:worker'
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
  /** A dispute's resolution: part of the payment to the worker, the rest of what the poster paid refunded. */
  split: {
    from: ['assigned', 'completed'],
    money: HELD,
    to: 'same',
    moneyTo: 'splitting',
    settles: { money: 'split', status: 'paid' },
    by: ['admin'],
    guards: ['workerAccountReady', 'reasonGiven'],
    effects: ['stripe:transfer', 'stripe:refund', 'ledger:transfer', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
  /** A refund after release: only the admin, confirming the worker and the amount of the reversed transfer. */
  reverse: {
    from: ['paid'],
    money: ['released'],
    to: 'cancelled',
    moneyTo: 'reversing',
    settles: { money: 'reversed', status: 'same' },
    by: ['admin'],
    guards: ['reasonGiven', 'reversalConfirmed'],
    effects: ['stripe:reversal', 'stripe:refund', 'ledger:reversal', 'ledger:refund', 'notify:poster', 'notify:worker', 'audit-log'],
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
   * The poster deletes a job whose money is not held by work in progress: a draft, an open job
   * (refunded), or one whose money is settled. A completed job whose money is held is refused
   * ('Job cannot be deleted in its current status'): its money must be decided first.
   */
  delete: {
    from: ['awaiting_payment', 'open', 'paid', 'cancelled'],
    money: ['unpaid', 'held', 'released', 'refunded', 'split', 'reversed'],
    to: null,
    by: ['poster'],
    effects: ['stripe:refund', 'ledger:refund'],
  },
  /** The admin deletes any job (spec 2 §4) with a reason; held money is decided in the same step (refunded, or released first). */
  adminDelete: {
    from: JOB_STATUSES,
    money: ['unpaid', 'held', 'released', 'refunded', 'split', 'reversed'],
    to: null,
    by: ['admin'],
    guards: ['reasonGiven'],
    effects: ['stripe:refund', 'ledger:refund', 'unschedule:auto-release', 'notify:poster', 'notify:worker', 'audit-log'],
  },
} as const satisfies Record<string, Transition>;

export type JobAction = keyof typeof JOB_PROCESS;

/** The pending money state of each action that calls Stripe, and the action that owns it. */
export const PENDING_MONEY: Partial<Record<MoneyState, JobAction>> = { releasing: 'release', refunding: 'refund', splitting: 'split', reversing: 'reverse' };

/**
 * The money state of a job stored before money states were kept (a deployment's older items):
 * what its status says. Every reader goes through it, and the conditions accept such an item
 * by its status (functions/domain/job-transitions.ts), so no backfill is needed.
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

/** How long an unpaid draft is kept before it expires. */
export const DRAFT_TTL_SECONDS = 24 * 3600;

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
