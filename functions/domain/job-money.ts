import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { JOB_PROCESS, PENDING_MONEY, canPerform, moneyStateOf, type MoneyState, type Transition } from '../../shared/job-process.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatUsdAmount } from '../../shared/money.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { HttpError, badRequest, conflict, notFound } from '../lib/errors.js';
import { stripe } from '../lib/stripe.js';
import { isStripeError } from '../lib/stripe-errors.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT, type JobChange } from '../routes.js';
import { keys } from '../table.js';
import { adminActionPut } from './admin-actions.js';
import { pushPaymentChanged } from './admin-live.js';
import { jobEvent } from './events.js';
import { jobTransition, type TransitionAction } from './job-transitions.js';
import { getJob, type JobItem } from './jobs.js';
import { jobScope, movementPut, transactLedger } from './ledger.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { getProfile } from './profiles.js';

/**
 * The money steps of the job process (shared/job-process.ts): each action that moves money is
 * decided in one transaction (held -> its pending state, with the job's status and the guards
 * as conditions) and settled in another (pending -> final, with its ledger movements) once its
 * Stripe call answered. Every Stripe call is keyed by the job, so whoever finishes a pending
 * decision — a retry, the admin, the refund rule, Stripe's webhook — moves the money once.
 */

/** The money state an action's pending decision ends in (refund for every refunding action). */
const settledBy = (action: TransitionAction): MoneyState | undefined => {
  const transition: Transition = JOB_PROCESS[action];
  return transition.settles?.money;
};

/** Why `action` cannot be taken on the job as it is: the clearest of the spec's (and our) refusals. */
export function moneyRefusal(job: JobItem, action: TransitionAction): HttpError {
  const money = moneyStateOf(job);
  if (money === 'refunded' || money === 'refunding' || money === 'reversed' || money === 'reversing') return conflict(MSG.payments.alreadyRefundedJob);
  if (PENDING_MONEY[money]) return conflict(MSG.payments.moneyDecisionUnderWay);
  if (action === 'release') return conflict(money === 'released' || money === 'split' ? MSG.payments.alreadyReleased : MSG.payments.onlyCompletedRelease);
  if (action === 'reverse') return conflict(MSG.payments.onlyReleasedReverse);
  return conflict(money === 'released' || money === 'split' ? MSG.payments.refundAfterReleaseNeedsReversal : MSG.jobs.statusChanged);
}

/**
 * Writes a decision and answers the job as decided. A refused condition is answered with the
 * state that beat it — unless `joinable` and the same action decided it first (racing release
 * clicks, the auto-release meeting the poster): then the job is answered as it is, pending (this
 * call finishes it too) or settled already (the caller answers it as done). Refunds are not
 * joinable: an admin's or poster's click that did not decide is told so.
 */
async function commit(decided: JobItem, action: TransitionAction, items: TransactItem[], joinable = true): Promise<JobItem> {
  try {
    await retryLostRaces(() => transactWrite(items));
    return decided;
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    const current = await getJob(decided.id, { consistentRead: true });
    if (!current) throw notFound(MSG.jobs.notFound);
    const money = moneyStateOf(current);
    if (joinable && (PENDING_MONEY[money] === action || settledBy(action) === money)) return current;
    throw moneyRefusal(current, action);
  }
}

/**
 * A Stripe call of a pending decision. A definite refusal (the request itself is wrong: an
 * account that cannot receive, an amount over what is left) hands the decision back (pending ->
 * held) so the money can be decided again, with what the decision had cleared (`restore`: the
 * auto-release's time and pause, so its schedule still finds the job waiting for it); anything
 * else (Stripe unreachable, failing, rate limiting) leaves it pending, to be finished by the
 * same call again.
 */
async function stripeStep<T>(job: JobItem, pending: MoneyState, call: () => Promise<T>, restore: Partial<JobItem> = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStripeError(error) && (error.type === 'StripeInvalidRequestError' || error.type === 'StripeCardError')) {
      const restored = Object.entries(restore).filter(([, value]) => value !== undefined);
      await conditionHeld(
        db.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.job(job.id),
            UpdateExpression: `SET ${['moneyState = :held', ...restored.map(([name]) => `#${name} = :${name}`)].join(', ')}`,
            ConditionExpression: 'moneyState = :pending',
            ...(restored.length > 0 && { ExpressionAttributeNames: Object.fromEntries(restored.map(([name]) => [`#${name}`, name])) }),
            ExpressionAttributeValues: { ':held': 'held', ':pending': pending, ...Object.fromEntries(restored.map(([name, value]) => [`:${name}`, value])) },
          }),
        ),
      );
    }
    throw error;
  }
}

/**
 * The payment row's change for a refund of `amount`, with its reason (the admin's payments table
 * shows it) — the whole payment, or a split's part, whose row also names the transfer of the
 * worker's part — with the overview's counters.
 */
function paymentRowRefunded(paymentIntentId: string, amount: number, at: string, reason: string, split?: { transferId: string; workerId: string }): TransactItem[] {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.payment(paymentIntentId),
        UpdateExpression: split
          ? 'SET refundedAt = :now, refundedAmount = :amount, refundReason = :reason, transferId = :transfer, workerId = :worker'
          : 'SET #status = :refunded, refundedAt = :now, refundedAmount = :amount, refundReason = :reason',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: split ? undefined : { '#status': 'status' },
        ExpressionAttributeValues: { ...(split ? { ':transfer': split.transferId, ':worker': split.workerId } : { ':refunded': 'refunded' }), ':now': at, ':amount': amount, ':reason': reason },
      },
    },
  ];
}

/** The worker's account, which a transfer needs ready (the `workerAccountReady` guard), with the spec's refusals. */
async function readyWorkerAccount(workerId: string): Promise<string> {
  const worker = await getProfile(workerId);
  if (!worker?.stripeAccountId) throw badRequest(MSG.payments.workerNotConnected);
  if (worker.paymentAccount.status !== 'complete') throw badRequest(MSG.payments.workerSetupIncomplete);
  return worker.stripeAccountId;
}

// ---------------------------------------------------------------- release

/** Who releases, when it is not the poster's own click. */
export interface ReleaseOptions {
  /** The admin (releasing a job not their own) and the reason the audit log keeps. */
  admin?: { reason: string };
  /** The auto-release schedule releases (DECISIONS.md "Wave 3"): both parties are told it was automatic. */
  automatic?: boolean;
}

/** A job after release; the notification is there when this call made it paid. */
export interface PaidJob {
  job: JobItem;
  notification?: ReturnType<typeof notificationItem>;
}

/**
 * Releases a completed job's payment to its worker (spec 2 §5 "Release payment"), by its poster,
 * the admin (with a reason, logged in the decision's transaction) or the auto-release: decided
 * (held -> releasing) only while the money is held, so a refund, a split or a delete that came
 * first refuses it; then a Stripe transfer keyed by the job; then settled (`paid`, released)
 * with its ledger movements, the worker's notification and their completed-jobs count. Called
 * again on a paid job it answers the job as it is; on a pending release it finishes it.
 */
export async function releasePayment(jobId: string, callerId: string, options: ReleaseOptions = {}): Promise<PaidJob> {
  const { admin } = options;
  let job = await getJob(jobId, { consistentRead: true });
  const asAdmin = admin !== undefined && job?.posterId !== callerId;
  if (!job || (job.posterId !== callerId && !asAdmin)) throw notFound(MSG.jobs.notFound);
  const money = moneyStateOf(job);
  if (money === 'released' && job.status === 'paid') return { job };
  if (asAdmin && !admin.reason) throw badRequest(MSG.payments.releaseReasonRequired);
  // Money decided otherwise first (refunded, split, a decision under way) is that decision's answer.
  if (money !== 'held' && money !== 'releasing') throw moneyRefusal(job, 'release');
  if (!job.workerId) throw badRequest(MSG.payments.noWorkerAssigned);
  if (money === 'held' && !canPerform('release', job)) throw moneyRefusal(job, 'release');
  if (!job.stripePaymentIntentId) throw new HttpError(409, MSG.payments.cannotReleaseYet);
  const destination = await readyWorkerAccount(job.workerId);

  const { autoReleaseAt, autoReleasePausedAt, autoReleasePauseReason } = job;
  if (money === 'held') {
    const decided = jobTransition(
      job,
      'release',
      { autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined },
      { by: { posterId: job.posterId } },
    );
    const logged = asAdmin ? [adminActionPut({ adminId: callerId, actionType: 'release_payment', targetType: 'job', targetId: job.id, details: { amount: job.payment }, reason: admin.reason })] : [];
    job = await commit(decided.updated, 'release', [{ Update: decided.update }, ...logged]);
    if (moneyStateOf(job) === 'released') return { job };
  }
  const releasing = job;
  const transfer = await stripeStep(releasing, 'releasing', async () =>
    (await stripe()).transfers.create(
      { amount: releasing.payment, currency: 'usd', destination, transfer_group: releasing.id, metadata: { jobId: releasing.id, workerId: releasing.workerId! } },
      { idempotencyKey: `release-${releasing.id}` },
    ),
    { autoReleaseAt, autoReleasePausedAt, autoReleasePauseReason },
  ).catch((error: unknown) => {
    // The worker's account lost its transfers capability since we last read it (Stripe asked
    // for more details): the money is held again, the spec's 'Payment release failed' answers,
    // and an auto-release waits for the account as for one never ready.
    if (isStripeError(error) && error.code === 'insufficient_capabilities_for_transfer') throw badRequest(MSG.payments.releaseRefused);
    throw error;
  });
  return markJobPaid(releasing, transfer.id, [], options);
}

/**
 * Settles a release whose transfer was made (releasing -> released, `paid`): the job, the
 * ledger's transfer and fee, its payment row, the worker's completed-jobs counter and the
 * notifications, atomically. Safe to repeat (the transfer webhook calls it too, in case the
 * releasing call died after the transfer): the second answers the paid job.
 */
export async function markJobPaid(job: JobItem, transferId: string, extra: TransactItem[] = [], options: ReleaseOptions & { settled?: boolean } = {}): Promise<PaidJob> {
  const releasedAt = new Date().toISOString();
  const { updated: paid, update } = jobTransition(job, 'release', { transferId, autoReleaseAt: undefined, autoReleaseBlockedAt: undefined, autoReleaseBlockedReason: undefined, releasedAt }, { by: { posterId: job.posterId } }, 'settle');
  const amount = formatUsdAmount(job.payment);
  const notification = notificationItem({
    userId: job.workerId!,
    jobId: job.id,
    type: 'payment_released',
    title: options.automatic ? MSG.payments.autoReleasedTitle : 'Payment released',
    message: options.automatic
      ? MSG.payments.autoReleasedToWorker(amount, job.title)
      : `The poster released ${amount} USD for "${job.title}". The funds arrive within 1-2 business days.`,
    metadata: { jobTitle: job.title },
  });
  const posterNotification = options.automatic
    ? notificationItem({
        userId: job.posterId,
        jobId: job.id,
        type: 'payment_released',
        title: MSG.payments.autoReleasedTitle,
        message: MSG.payments.autoReleasedToPoster(amount, job.title),
        metadata: { jobTitle: job.title },
      })
    : undefined;
  const scope = jobScope(job.id);
  try {
    await retryLostRaces(() =>
      transactLedger([
        { Update: update },
        {
          Update: {
            TableName: tableName(),
            Key: keys.profile(job.workerId!),
            UpdateExpression: 'ADD completedJobs :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        ...(job.stripePaymentIntentId
          ? [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.payment(job.stripePaymentIntentId),
                  UpdateExpression: 'SET transferId = :transfer, workerId = :worker',
                  ExpressionAttributeValues: { ':transfer': transferId, ':worker': job.workerId },
                },
              },
            ]
          : []),
        ...movementPut(
          { scope, movementId: 'transfer', kind: 'transfer', from: ledgerAccount.escrow(job.id), to: ledgerAccount.worker(job.workerId!), amount: job.payment, stripe: { kind: 'transfer', id: transferId }, settled: options.settled },
          releasedAt,
        ),
        ...movementPut({ scope, movementId: 'platform_fee', kind: 'platform_fee', from: ledgerAccount.escrow(job.id), to: ledgerAccount.revenue(), amount: job.postedAmount - job.payment, settled: true }, releasedAt),
        jobEvent(JOB_EVENT.updated, paid, 'paid'),
        ...notificationWrites(notification),
        ...(posterNotification ? notificationWrites(posterNotification) : []),
        ...extra,
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) {
      const current = await getJob(job.id, { consistentRead: true });
      if (current?.status === 'paid') return { job: current };
      throw current ? moneyRefusal(current, 'release') : notFound(MSG.jobs.notFound);
    }
    throw error;
  }
  if (job.stripePaymentIntentId) await pushPaymentChanged(job.stripePaymentIntentId);
  return { job: paid, notification };
}

// ---------------------------------------------------------------- refund

/** How a refund was decided: the action of the process that took it, and what it writes beside. */
export interface RefundDecision {
  action: 'refund' | 'cancel' | 'adminCancel';
  reason: string;
  /** The admin's audit entry and notices, or the poster's, for the decision's transaction. */
  extra?: TransactItem[];
  /** The job's own changes beside the money (a cancel clears the worker). */
  changes?: Partial<JobItem>;
  change?: JobChange;
}

/**
 * Decides a refund of held money (held -> refunding, the job cancelled with the reason, any
 * auto-release and pause removed), so no release, split or delete can follow. The job's
 * `cancelled` event removes the auto-release's schedules and lets the refund rule finish the
 * refund when the caller does not (functions/events/refund-job-payment.ts).
 */
export async function decideRefund(job: JobItem, decision: RefundDecision): Promise<JobItem> {
  if (!canPerform(decision.action, job)) throw moneyRefusal(job, decision.action);
  const { updated, update } = jobTransition(
    job,
    decision.action,
    { refundReason: decision.reason, autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, ...decision.changes },
    { by: { posterId: job.posterId } },
  );
  return commit(updated, 'refund', [{ Update: update }, jobEvent(JOB_EVENT.updated, updated, decision.change ?? 'cancelled'), ...(decision.extra ?? [])], false);
}

/**
 * Finishes a decided refund (refunding -> refunded): Stripe's refund of what the poster paid,
 * keyed by the job (so the admin's call, the refund rule and a retry refund once), then the
 * ledger's refund, the payment row and the overview's counters in one transaction. A job being
 * deleted (or deleted) keeps no money state: its ledger and payment row are settled alone.
 */
export async function settleRefund(job: JobItem, options: { settled?: boolean; extra?: TransactItem[]; made?: { id: string; amount: number } } = {}): Promise<JobItem> {
  if (!job.stripePaymentIntentId) return job;
  const paymentIntentId = job.stripePaymentIntentId;
  // `made`: a refund Stripe reported that we did not ask for (the dashboard's), recorded as it is.
  const refund =
    options.made ??
    (await stripeStep(job, 'refunding', async () =>
      (await stripe()).refunds.create(
        { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { jobId: job.id, reason: (job.refundReason ?? '').slice(0, 500) } },
        { idempotencyKey: `refund-${job.id}` },
      ),
    ));
  const at = new Date().toISOString();
  const settle = job.deletingAt ? undefined : jobTransition(job, 'refund', {}, { by: { posterId: job.posterId } }, 'settle');
  try {
    await retryLostRaces(() =>
      transactLedger([
        ...(settle ? [{ Update: settle.update }] : []),
        ...movementPut(
          { scope: jobScope(job.id), movementId: 'refund', kind: 'refund', from: ledgerAccount.escrow(job.id), to: ledgerAccount.card(job.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id }, settled: options.settled },
          at,
        ),
        ...paymentRowRefunded(paymentIntentId, refund.amount, at, job.refundReason ?? ''),
        ...(options.extra ?? []),
      ]),
    );
  } catch (error) {
    // Settled already (a retry, the webhook and the rule meeting): the ledger's movement is there once.
    if (!(error instanceof TransactionRefused)) throw error;
    return (await getJob(job.id, { consistentRead: true, includeDeleting: true })) ?? job;
  }
  await pushPaymentChanged(paymentIntentId);
  return settle?.updated ?? job;
}

/**
 * The admin's refund of a job's payment (spec 2 §5 "Payment record"), from the payments table:
 * held money is refunded and the job cancelled with the reason (refused once released: that
 * takes a reversal). Decided and settled here; the same refund asked again finishes a pending
 * one (answered as not decided here: another click refunded), and one already made is a 409.
 */
export async function adminRefundJob(job: JobItem, reason: string, adminId: string): Promise<{ job: JobItem; decidedHere: boolean }> {
  let current = job;
  const money = moneyStateOf(current);
  if (money === 'refunded') throw conflict(MSG.admin.alreadyRefunded);
  const decidedHere = money === 'held';
  if (decidedHere) {
    current = await decideRefund(current, {
      action: 'refund',
      reason,
      extra: [
        adminActionPut({ adminId, actionType: 'issue_refund', targetType: 'payment', targetId: current.stripePaymentIntentId ?? current.id, details: { jobId: current.id, amount: current.postedAmount }, reason }),
        ...partyNotices(current, MSG.payments.refundedTitle, MSG.payments.refundedMessage(current.title, formatUsdAmount(current.postedAmount), reason)),
      ],
    });
  } else if (money !== 'refunding') {
    throw moneyRefusal(current, 'refund');
  }
  // A refund under way with another reason is another admin's decision: not this one's to finish.
  if (current.refundReason !== reason) throw conflict(MSG.admin.refundInProgressOtherReason);
  if (moneyStateOf(current) === 'refunded') return { job: current, decidedHere };
  return { job: await settleRefund(current), decidedHere };
}

/** The same notice to both parties of a job (the worker only while there is one). */
function partyNotices(job: JobItem, title: string, message: string): TransactItem[] {
  return [job.posterId, job.workerId]
    .filter((userId): userId is string => Boolean(userId))
    .flatMap((userId) => notificationWrites(notificationItem({ userId, jobId: job.id, type: 'job_moderated', title, message, metadata: { jobTitle: job.title } })));
}

// ---------------------------------------------------------------- split

/** What a split's refund says, on Stripe's refund and the payment row. */
const SPLIT_REASON = 'Dispute resolved with a split';

/**
 * A dispute's split (Wave 4): `toWorker` cents of the payment transferred to the worker, the
 * rest of what the poster paid refunded; the platform keeps no fee of a split. Decided while the
 * money is held (a release or refund that came first refuses it), then both Stripe calls keyed
 * by the job, then settled (`paid`, split) with both ledger movements.
 */
export async function splitJobMoney(job: JobItem, toWorker: number, extra: TransactItem[]): Promise<JobItem> {
  if (!job.workerId || !job.stripePaymentIntentId) throw conflict(MSG.disputes.nothingToSplit);
  if (!Number.isInteger(toWorker) || toWorker < 1 || toWorker >= job.payment) throw badRequest(MSG.disputes.splitAmountInvalid(formatUsdAmount(job.payment)));
  const destination = await readyWorkerAccount(job.workerId);
  let current = job;
  const money = moneyStateOf(current);
  if (money === 'held') {
    const decided = jobTransition(current, 'split', { splitToWorker: toWorker, splitRefunded: current.postedAmount - toWorker, autoReleaseAt: undefined, autoReleasePausedAt: undefined }, { by: { posterId: current.posterId } });
    current = await commit(decided.updated, 'split', [{ Update: decided.update }, jobEvent(JOB_EVENT.updated, decided.updated, 'disputed')]);
  } else if (money !== 'splitting' || current.splitToWorker !== toWorker) {
    throw moneyRefusal(current, 'split');
  }
  const splitting = current;
  const refundAmount = splitting.postedAmount - toWorker;
  const client = await stripe();
  const transfer = await stripeStep(splitting, 'splitting', () =>
    client.transfers.create(
      { amount: toWorker, currency: 'usd', destination, transfer_group: splitting.id, metadata: { jobId: splitting.id, workerId: splitting.workerId!, split: 'true' } },
      { idempotencyKey: `split-transfer-${splitting.id}` },
    ),
  );
  const refund = await client.refunds.create(
    { payment_intent: splitting.stripePaymentIntentId!, amount: refundAmount, reason: 'requested_by_customer', metadata: { jobId: splitting.id, reason: SPLIT_REASON } },
    { idempotencyKey: `refund-${splitting.id}` },
  );
  const at = new Date().toISOString();
  const { updated, update } = jobTransition(splitting, 'split', { transferId: transfer.id, releasedAt: at }, { by: { posterId: splitting.posterId } }, 'settle');
  const scope = jobScope(splitting.id);
  try {
    await retryLostRaces(() =>
      transactLedger([
        { Update: update },
        ...movementPut({ scope, movementId: 'transfer', kind: 'transfer', from: ledgerAccount.escrow(splitting.id), to: ledgerAccount.worker(splitting.workerId!), amount: toWorker, stripe: { kind: 'transfer', id: transfer.id } }, at),
        ...movementPut({ scope, movementId: 'refund', kind: 'refund', from: ledgerAccount.escrow(splitting.id), to: ledgerAccount.card(splitting.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id } }, at),
        ...paymentRowRefunded(splitting.stripePaymentIntentId!, refund.amount, at, SPLIT_REASON, { transferId: transfer.id, workerId: splitting.workerId! }),
        jobEvent(JOB_EVENT.updated, updated, 'paid'),
        ...extra,
      ]),
    );
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    const now = await getJob(splitting.id, { consistentRead: true });
    if (now && moneyStateOf(now) === 'split') return now;
    throw now ? moneyRefusal(now, 'split') : notFound(MSG.jobs.notFound);
  }
  await pushPaymentChanged(splitting.stripePaymentIntentId!);
  return updated;
}

// ---------------------------------------------------------------- reversal

/** What the admin confirmed in the console before a refund after release: the worker and the amount they named. */
export interface ReversalConfirmation {
  workerId: string;
  amount: number;
}

/**
 * A refund after release (Wave 4), the admin's only: the worker's transfer reversed and the
 * poster refunded in full, the job cancelled. The admin must name the worker and the amount as
 * the console showed them (`reversalConfirmed`): a confirmation that does not match the job is a
 * 409, so nobody reverses a transfer they did not see. Tips are not touched: they are their own money.
 */
export async function reverseRelease(job: JobItem, reason: string, confirmation: ReversalConfirmation, adminId: string): Promise<JobItem> {
  if (!reason.trim()) throw badRequest(MSG.payments.refundReasonRequired);
  let current = job;
  const money = moneyStateOf(current);
  if (money === 'reversed') throw conflict(MSG.admin.alreadyRefunded);
  if (money !== 'reversing' && !canPerform('reverse', current)) throw moneyRefusal(current, 'reverse');
  if (!current.transferId || !current.workerId || !current.stripePaymentIntentId) throw conflict(MSG.payments.onlyReleasedReverse);
  if (confirmation.workerId !== current.workerId || confirmation.amount !== current.payment) throw conflict(MSG.payments.reversalNotConfirmed);
  if (money === 'released') {
    const decided = jobTransition(current, 'reverse', { refundReason: reason }, { by: { posterId: current.posterId } });
    current = await commit(decided.updated, 'reverse', [
      { Update: decided.update },
      jobEvent(JOB_EVENT.updated, decided.updated, 'cancelled'),
      adminActionPut({ adminId, actionType: 'issue_refund', targetType: 'payment', targetId: current.stripePaymentIntentId, details: { jobId: current.id, reversedTransfer: current.transferId, amount: current.payment, workerId: current.workerId }, reason }),
      ...partyNotices(current, MSG.payments.reversedTitle, MSG.payments.reversedMessage(current.title, formatUsdAmount(current.payment), formatUsdAmount(current.postedAmount), reason)),
    ]);
  }
  const reversing = current;
  const client = await stripe();
  const reversal = await client.transfers.createReversal(reversing.transferId!, { amount: reversing.payment, metadata: { jobId: reversing.id } }, { idempotencyKey: `reverse-${reversing.id}` });
  const refund = await client.refunds.create(
    { payment_intent: reversing.stripePaymentIntentId!, reason: 'requested_by_customer', metadata: { jobId: reversing.id, reason: reason.slice(0, 500) } },
    { idempotencyKey: `refund-${reversing.id}` },
  );
  const at = new Date().toISOString();
  const { updated, update } = jobTransition(reversing, 'reverse', { reversalId: reversal.id }, { by: { posterId: reversing.posterId } }, 'settle');
  const scope = jobScope(reversing.id);
  const escrow = ledgerAccount.escrow(reversing.id);
  try {
    await retryLostRaces(() =>
      transactLedger([
        { Update: update },
        ...movementPut({ scope, movementId: 'reversal', kind: 'reversal', from: ledgerAccount.worker(reversing.workerId!), to: escrow, amount: reversal.amount, stripe: { kind: 'transfer_reversal', id: reversal.id }, settled: true }, at),
        ...movementPut({ scope, movementId: 'fee_return', kind: 'fee_return', from: ledgerAccount.revenue(), to: escrow, amount: reversing.postedAmount - reversing.payment, settled: true }, at),
        ...movementPut({ scope, movementId: 'refund', kind: 'refund', from: escrow, to: ledgerAccount.card(reversing.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id } }, at),
        ...paymentRowRefunded(reversing.stripePaymentIntentId!, refund.amount, at, reason),
      ]),
    );
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    return (await getJob(reversing.id, { consistentRead: true })) ?? reversing;
  }
  await pushPaymentChanged(reversing.stripePaymentIntentId!);
  return updated;
}
