import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { JobChargeback } from '../../shared/api.js';
import { isMoneyPending, moneyStateOf } from '../../shared/job-process.js';
import { balances, ledgerAccount } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatUsdAmount, heldAmount } from '../../shared/money.js';
import { db, itemExists, tableName } from '../lib/db.js';
import { LostRace, TransactionRefused, retryLostRaces, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT, type JobChange } from '../routes.js';
import { keys } from '../table.js';
import { pushPaymentChanged } from './admin-live.js';
import { adminUserId } from '../people/admin-seat.js';
import { resumedReleaseTime } from './auto-release.js';
import { jobEvent } from '../jobs/job-events.js';
import { jobTransition, type TransitionAction } from '../jobs/job-transitions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { jobScope, movementPut, movementsOf, settleMovement, transactLedger } from './ledger.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { getDecision, movementIdOf } from './decision.js';
import { carryOutQuietly } from './executor.js';
import { refundRestAfterChargeback } from './job-money.js';

/**
 * The moves Stripe makes on its own (DECISIONS.md "Wave 5"), taken into the process and the
 * ledger from its webhooks: a refund made in its dashboard, a card's chargeback and its outcome.
 * A move of one of our decisions (its metadata names it) is that decision's: carried out, not
 * taken in. Each is keyed by the Stripe object's id in the ledger (`refund:re_…`,
 * `chargeback:dp_…`), so a webhook delivered twice takes it in once. While a decision of the
 * job is pending the move waits: what the escrow holds is that decision's to settle first, which
 * the handler carries out itself (the event's handler fails, and EventBridge delivers it again,
 * only while Stripe fails that decision).
 */

/** A move Stripe made while a decision of the job is pending: retried once the decision settles. */
export class WaitForDecision extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} has a money decision pending: Stripe's move waits for it`);
    this.name = 'WaitForDecision';
  }
}

/**
 * The job, once no decision of its money is pending. A pending one is carried out here first
 * (its request may still be at it: the executor makes each Stripe call once, whoever carries it
 * out), so Stripe's move waits only while Stripe fails that decision — then the event's handler
 * fails and the bus delivers it again, a few times, minutes apart.
 */
async function jobPastItsDecision(jobId: string): Promise<JobItem | undefined> {
  const job = await getJob(jobId, { consistentRead: true, includeDeleting: true });
  if (!job || !isMoneyPending(job)) return job;
  if (job.moneyDecisionId) await carryOutQuietly(job.moneyDecisionId);
  const after = await getJob(jobId, { consistentRead: true, includeDeleting: true });
  if (after && isMoneyPending(after)) throw new WaitForDecision(jobId);
  return after;
}

interface PaymentRow {
  jobId: string;
  jobTitle: string;
  posterId: string;
  workerId?: string | null;
  kind?: 'tip';
  amount: number;
}

async function paymentRow(paymentIntentId: string): Promise<PaymentRow | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.payment(paymentIntentId), ConsistentRead: true }));
  return Item as PaymentRow | undefined;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** What a job's escrow holds now, by its ledger. */
async function escrowBalance(jobId: string): Promise<number> {
  return balances(await movementsOf(jobScope(jobId))).get(ledgerAccount.escrow(jobId)) ?? 0;
}

const notices = (userIds: ReadonlyArray<string | undefined | null>, notice: Omit<Parameters<typeof notificationItem>[0], 'userId'>): TransactItem[] =>
  [...new Set(userIds.filter((userId): userId is string => Boolean(userId)))].flatMap((userId) => notificationWrites(notificationItem({ ...notice, userId })));

/** False when refused: taken in already (the webhook delivered twice), or the state moved since it was read — the caller's marker tells which. */
async function once(items: TransactItem[]): Promise<boolean> {
  try {
    await transactLedger(items);
    return true;
  } catch (error) {
    if (error instanceof TransactionRefused) return false;
    throw error;
  }
}

// ---------------------------------------------------------------- refunds

/**
 * `refund.created`: a refund of one of our decisions is that decision's (carried out, its
 * movement marked settled by Stripe's word). Any other — made in Stripe's dashboard — is taken in:
 * of held money, what is held is lowered (a release then pays only what remains after the fee),
 * or, refunding all of it, the job is cancelled as an admin's refund cancels it; of money already
 * out of the escrow (released, split, a tip transferred), it is paid by the platform, its loss,
 * which reconciliation reports. Answers what it did.
 */
export async function takeInRefund(refund: Stripe.Refund): Promise<'ours' | 'taken in' | 'already' | 'unknown'> {
  if (refund.status === 'failed' || refund.status === 'canceled') return 'unknown';
  const decisionId = refund.metadata?.decision;
  if (decisionId) {
    await carryOutQuietly(decisionId);
    const decision = await getDecision(decisionId);
    if (decision && refund.metadata?.call) await settleMovement(decision.scope, movementIdOf(decision, refund.metadata.call), refund.id);
    return 'ours';
  }
  const paymentIntentId = idOf(refund.payment_intent);
  const row = paymentIntentId ? await paymentRow(paymentIntentId) : undefined;
  if (!row || !paymentIntentId) return 'unknown';
  // Refused, the refund was either taken in already (its movement is there: a webhook delivered
  // twice) or the job moved since it was read (a decision of its money written meanwhile): then
  // it is read again, that decision carried out first, and the refund tried again.
  const taken = await retryLostRaces(async () => {
    const job = await jobPastItsDecision(row.jobId);
    const held = row.kind !== 'tip' && job && !job.deletingAt && moneyStateOf(job) === 'held';
    const done = held ? await refundOfHeldMoney(job, refund, paymentIntentId) : await refundBeyondEscrow(row, refund, paymentIntentId);
    if (!done && !(await itemExists(keys.ledgerMovement(jobScope(row.jobId), `refund:${refund.id}`)))) throw new LostRace();
    return done;
  });
  if (taken) await pushPaymentChanged(paymentIntentId);
  return taken ? 'taken in' : 'already';
}

/** The payment row's refunded amount, moved by a refund Stripe made. */
const rowRefunded = (paymentIntentId: string, amount: number, whole: boolean): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.payment(paymentIntentId),
    UpdateExpression: `SET refundedAt = :now, refundedAmount = if_not_exists(refundedAmount, :zero) + :amount, refundReason = :reason${whole ? ', #status = :refunded' : ''}`,
    ...(whole ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
    ExpressionAttributeValues: { ':now': new Date().toISOString(), ':zero': 0, ':amount': amount, ':reason': MSG.payments.refundedInStripe, ...(whole ? { ':refunded': 'refunded' } : {}) },
  },
});

/** A refund of held money, as the job was just read: refused when the job moved since, or when the refund was taken in already. */
function refundOfHeldMoney(job: JobItem, refund: Stripe.Refund, paymentIntentId: string): Promise<boolean> {
  const left = heldAmount(job) - refund.amount;
  const whole = left <= 0;
  const action: TransitionAction = whole ? 'refundedInStripe' : 'takeInRefund';
  const seen = job.refundedWhileHeld ?? 0;
  const { updated, update } = jobTransition(
    job,
    action,
    whole
      ? { refundedWhileHeld: seen + refund.amount, refundReason: MSG.payments.refundedInStripe, autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, pausedReleaseAt: undefined }
      : { refundedWhileHeld: seen + refund.amount },
    { by: { posterId: job.posterId }, condition: { expression: 'attribute_not_exists(refundedWhileHeld) OR refundedWhileHeld = :seen', values: { ':seen': seen } } },
  );
  const amount = formatUsdAmount(refund.amount);
  return once([
    { Update: update },
    ...movementPut({ scope: jobScope(job.id), movementId: `refund:${refund.id}`, kind: 'refund', from: ledgerAccount.escrow(job.id), to: ledgerAccount.card(job.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id }, settled: true }),
    rowRefunded(paymentIntentId, refund.amount, whole),
    jobEvent(JOB_EVENT.updated, updated, whole ? 'cancelled' : 'refundedInPart'),
    ...notices([job.posterId], {
      jobId: job.id,
      type: 'payment_refunded',
      title: MSG.payments.refundedTitle,
      message: whole ? MSG.payments.refundedMessage(job.title, amount, MSG.payments.refundedInStripe) : MSG.payments.refundedInPart(job.title, amount, formatUsdAmount(Math.max(0, left))),
      metadata: { jobTitle: job.title },
    }),
    ...(whole ? notices([job.workerId], { jobId: job.id, type: 'payment_refunded', title: MSG.payments.refundedTitle, message: MSG.payments.refundedMessage(job.title, amount, MSG.payments.refundedInStripe), metadata: { jobTitle: job.title } }) : []),
  ]);
}

/**
 * A refund of money no longer in the escrow (the worker was paid, a tip transferred, the job
 * refunded or gone): the platform pays what the escrow lacks, its loss, and the admin is told.
 */
async function refundBeyondEscrow(row: PaymentRow, refund: Stripe.Refund, paymentIntentId: string): Promise<boolean> {
  const { jobId } = row;
  const lacking = Math.max(0, refund.amount - (await escrowBalance(jobId)));
  const admin = await adminUserId();
  return once([
    ...movementPut({ scope: jobScope(jobId), movementId: `platform_loss:${refund.id}`, kind: 'platform_loss', from: ledgerAccount.revenue(), to: ledgerAccount.escrow(jobId), amount: lacking, settled: true }),
    ...movementPut({ scope: jobScope(jobId), movementId: `refund:${refund.id}`, kind: row.kind === 'tip' ? 'tip_refund' : 'refund', from: ledgerAccount.escrow(jobId), to: ledgerAccount.card(row.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id }, settled: true }),
    rowRefunded(paymentIntentId, refund.amount, false),
    ...(lacking > 0 ? notices([admin], { jobId: null, type: 'payment_refunded', title: MSG.payments.refundBeyondEscrowTitle, message: MSG.payments.refundBeyondEscrow(row.jobTitle, formatUsdAmount(refund.amount), formatUsdAmount(lacking)), metadata: { jobTitle: row.jobTitle, jobId } }) : []),
  ]);
}

// ---------------------------------------------------------------- chargebacks

const chargebackStatusOf = (dispute: Stripe.Dispute): JobChargeback['status'] => (dispute.status === 'won' ? 'won' : dispute.status === 'lost' ? 'lost' : 'open');

interface DisputeFunds {
  /** The balance transaction that moved them (what reconciliation compares), and the amounts. */
  transaction: string;
  amount: number;
  fee: number;
}

/** The dispute's balance transactions: what the bank took with Stripe's fee, and what it gave back (Stripe keeps the fee since June 2025). */
function fundsOf(dispute: Stripe.Dispute): { withdrawal?: DisputeFunds; reinstatement?: DisputeFunds } {
  const transactions = (dispute.balance_transactions ?? []).filter((transaction): transaction is Stripe.BalanceTransaction => typeof transaction === 'object');
  const out = transactions.find((transaction) => transaction.amount < 0);
  const back = transactions.find((transaction) => transaction.amount > 0);
  return {
    ...(out ? { withdrawal: { transaction: out.id, amount: -out.amount, fee: out.fee } } : {}),
    ...(back ? { reinstatement: { transaction: back.id, amount: back.amount, fee: -back.fee } } : {}),
  };
}

/**
 * `charge.dispute.*`: the poster's bank disputed a payment (a chargeback). Opened: the money it
 * took, and Stripe's fee, leave the escrow in the ledger (the platform pays what the escrow no
 * longer holds); held money is frozen — no release, refund or split until the bank decides — and
 * the job shows it, with the evidence deadline, to both parties and the admin. Won: what the bank
 * returned is back, held money held again (its auto-release given back). Lost: the money is gone;
 * a job whose money was held is cancelled. Every step is told to the poster, the worker and the admin.
 */
export function takeInChargeback(dispute: Stripe.Dispute): Promise<'taken in' | 'already' | 'unknown'> {
  return retryLostRaces(() => takeInChargebackStep(dispute));
}

/**
 * One attempt at a step of the chargeback. Refused, it was either taken in already (its marker
 * is there: a webhook delivered twice) or the job moved since it was read — another step of the
 * same chargeback, reported at once (Stripe's webhooks race): then it is read and tried again,
 * so no step is dropped.
 */
async function takeInChargebackStep(dispute: Stripe.Dispute): Promise<'taken in' | 'already' | 'unknown'> {
  const paymentIntentId = idOf(dispute.payment_intent);
  const row = paymentIntentId ? await paymentRow(paymentIntentId) : undefined;
  if (!row || !paymentIntentId) return 'unknown';
  const job = await jobPastItsDecision(row.jobId);
  const { withdrawal, reinstatement } = fundsOf(dispute);
  // A win counts once the bank's money is back (funds_reinstated carries it): until then the money stays frozen.
  const status = dispute.status === 'won' && !reinstatement ? 'open' : chargebackStatusOf(dispute);
  const { jobId } = row;
  const scope = jobScope(jobId);
  const escrow = ledgerAccount.escrow(jobId);
  const card = ledgerAccount.card(row.posterId);
  const openedAt = new Date(dispute.created * 1000).toISOString();
  const chargeback: JobChargeback = {
    status,
    amount: dispute.amount,
    reason: dispute.reason,
    evidenceDueBy: status === 'open' && dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000).toISOString() : null,
    openedAt,
    ...(status !== 'open' ? { closedAt: new Date().toISOString() } : {}),
  };

  const ledger = await movementsOf(scope);
  const movements: TransactItem[] = [];
  if (withdrawal && !ledger.some((movement) => movement.movementId === `chargeback:${dispute.id}`)) {
    // What the escrow lacks of what the bank took: the platform's own money (released, or a tip transferred).
    const before = balances(ledger).get(escrow) ?? 0;
    movements.push(
      ...movementPut({ scope, movementId: `platform_loss:${dispute.id}`, kind: 'platform_loss', from: ledgerAccount.revenue(), to: escrow, amount: Math.max(0, withdrawal.amount - before), settled: true }),
      ...movementPut({ scope, movementId: `chargeback:${dispute.id}`, kind: 'chargeback', from: escrow, to: card, amount: withdrawal.amount, stripe: { kind: 'dispute_funds', id: withdrawal.transaction }, settled: true }),
      ...movementPut({ scope, movementId: `chargeback_fee:${dispute.id}`, kind: 'chargeback_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: withdrawal.fee, settled: true }),
    );
  }
  if (reinstatement && !ledger.some((movement) => movement.movementId === `chargeback_reversal:${dispute.id}`)) {
    const covered = ledger.find((movement) => movement.movementId === `platform_loss:${dispute.id}`)?.amount ?? 0;
    movements.push(
      ...movementPut({ scope, movementId: `chargeback_reversal:${dispute.id}`, kind: 'chargeback_reversal', from: card, to: escrow, amount: reinstatement.amount, stripe: { kind: 'dispute_funds', id: reinstatement.transaction }, settled: true }),
      // What the platform had put in comes back to it first; the rest is the job's held money again.
      ...movementPut({ scope, movementId: `loss_recovered:${dispute.id}`, kind: 'loss_recovered', from: escrow, to: ledgerAccount.revenue(), amount: Math.min(covered, reinstatement.amount), settled: true }),
      ...movementPut({ scope, movementId: `chargeback_fee_return:${dispute.id}`, kind: 'chargeback_fee_return', from: ledgerAccount.stripeFees(), to: ledgerAccount.revenue(), amount: reinstatement.fee, settled: true }),
    );
  }

  const jobWrites = job && !job.deletingAt ? chargebackJobWrites(job, chargeback) : [];
  const title = job?.title ?? row.jobTitle;
  const amount = formatUsdAmount(dispute.amount);
  const message =
    status === 'open'
      ? MSG.payments.chargebackOpened(title, amount, chargeback.evidenceDueBy)
      : status === 'won'
        ? MSG.payments.chargebackWon(title, amount)
        : MSG.payments.chargebackLost(title, amount);
  const done = await once([
    // Each step of a chargeback is taken in once, however often Stripe reports it (created, funds withdrawn, updated).
    { Put: { TableName: tableName(), Item: { ...keys.idempotency('chargeback', `${dispute.id}:${status}`), type: 'processedEvent' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...jobWrites,
    ...movements,
    {
      Update: {
        TableName: tableName(),
        Key: keys.payment(paymentIntentId),
        UpdateExpression: 'SET chargeback = :chargeback',
        ExpressionAttributeValues: { ':chargeback': { id: dispute.id, status, amount: dispute.amount } },
      },
    },
    ...notices([row.posterId, job?.workerId ?? row.workerId, await adminUserId()], {
      jobId: job && !job.deletingAt ? jobId : null,
      type: 'chargeback',
      title: status === 'open' ? MSG.payments.chargebackOpenedTitle : MSG.payments.chargebackClosedTitle,
      message,
      metadata: { jobTitle: title, jobId, chargebackId: dispute.id },
    }),
  ]);
  // Its marker, written with it, tells whether this step of the chargeback was taken in.
  if (!done && !(await itemExists(keys.idempotency('chargeback', `${dispute.id}:${status}`)))) throw new LostRace();
  if (done) await pushPaymentChanged(paymentIntentId);
  // Lost on a job of several charges: what the others hold goes back (a retry finds it decided).
  if (status === 'lost' && job?.topUps?.length) await refundRestAfterChargeback(jobId);
  return done ? 'taken in' : 'already';
}

/**
 * The job's side of a chargeback: its `chargeback` as Stripe reports it, and for money that was
 * held the process's transition (frozen; held again when won, the auto-release given back; the
 * job cancelled when lost).
 */
function chargebackJobWrites(job: JobItem, chargeback: JobChargeback): TransactItem[] {
  const money = moneyStateOf(job);
  const by = { posterId: job.posterId };
  const sameStep = { expression: 'attribute_not_exists(chargeback) OR chargeback.#step <> :step', values: { ':step': chargeback.status } };
  if (chargeback.status === 'open' && money === 'held') {
    const { updated, update } = jobTransition(job, 'chargebackOpened', { chargeback, moneyBeforeChargeback: 'held', autoReleaseAt: undefined, autoReleaseReminders: undefined }, { by, condition: sameStep });
    return [withStepName({ Update: update }), jobEvent(JOB_EVENT.updated, updated, 'disputed')];
  }
  if (money === 'frozen' && chargeback.status === 'won') {
    // The countdown comes back as a resolution gives it back: not while paused, nor while a dispute on the job is open.
    const givesBack = job.status === 'completed' && !job.autoReleasePausedAt && !((job.openDisputes ?? 0) > 0);
    const { updated, update } = jobTransition(job, 'chargebackWon', { chargeback, moneyBeforeChargeback: undefined, ...(givesBack ? { autoReleaseAt: resumedReleaseTime(undefined) } : {}) }, { by, condition: sameStep });
    return [withStepName({ Update: update }), jobEvent(JOB_EVENT.updated, updated, (givesBack ? 'autoReleaseScheduled' : 'chargeback') satisfies JobChange)];
  }
  if ((money === 'frozen' || money === 'held') && chargeback.status === 'lost') {
    const { updated, update } = jobTransition(
      job,
      'chargebackLost',
      { chargeback, moneyBeforeChargeback: undefined, autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, pausedReleaseAt: undefined },
      { by, condition: sameStep },
    );
    return [withStepName({ Update: update }), jobEvent(JOB_EVENT.updated, updated, 'cancelled')];
  }
  // Money not held (released, split, refunded): the job only shows the chargeback.
  const { updated, update } = jobTransition(job, 'recordChargeback', { chargeback }, { by, condition: sameStep });
  return [withStepName({ Update: update }), jobEvent(JOB_EVENT.updated, updated, 'chargeback')];
}

/** The step's attribute name in the condition (`status` is reserved in DynamoDB's expressions). */
function withStepName(item: TransactItem): TransactItem {
  const update = item.Update!;
  return { Update: { ...update, ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#step': 'status' } } };
}
