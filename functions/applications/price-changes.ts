import { randomUUID } from 'node:crypto';
import type { PendingPriceChange, PriceChange, PriceChangeAnswer } from '../../shared/api.js';
import { canPerform, isMoneyPending, moneyStateOf } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { formatCents, heldAmount } from '../../shared/money.js';
import { PRICE_CHANGE_TEXTS, priceChangeAmountProblem, priceChangeQuote, type PriceChangeStatus } from '../../shared/price-changes.js';
import type { RequestPriceChange } from '../../shared/schemas/price-change.js';
import { queryAll, tableName } from '../lib/db.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { LostRace, TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { JOB_EVENT } from '../routes.js';
import { jobEvent } from '../jobs/job-events.js';
import { jobTransition } from '../jobs/job-transitions.js';
import { getJob, toPartyJob, type JobItem } from '../jobs/jobs.js';
import { decisionPut, type MoneyDecision } from '../money/decision.js';
import { cardStepOf, carryOutForCaller, moneyRefusal, priceChangeRefundDecision, refundLateTopUp, topUpChargeCall, topUpDecision } from '../money/job-money.js';
import { retrieveIntent } from '../money/stripe-moves.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import type { ProfileItem } from '../people/profiles.js';

/**
 * Price changes after assignment (issue 45, docs/decisions/0323, shared/price-changes.ts): the
 * assigned worker asks, the poster approves or declines, the worker may withdraw while it waits.
 * The one waiting is named on the job (`priceChange`), so asking is refused while one waits and
 * every answer is conditional on it being that one; each request and where it ended is an item
 * in the job's partition, which the parties and the admin read as the job's history. Approving
 * is a money decision (the difference refunded first, `approvePriceChange`); the rest move no money.
 */

interface PriceChangeItem {
  id: string;
  jobId: string;
  workerId: string;
  posterId: string;
  from: number;
  amount: number;
  reason: string;
  /** `requested` while it waits; an item left `requested` by a job that moved on reads as lapsed. */
  status: Exclude<PriceChangeStatus, 'lapsed'>;
  requestedAt: string;
  answeredAt?: string;
  declineReason?: string;
  refunded?: number;
  charged?: number;
}

/** The request waiting on the job: one while the job is assigned (a completion or an unassignment clears it). */
const waitingOf = (job: JobItem): PendingPriceChange | undefined => (job.status === 'assigned' ? job.priceChange : undefined);

/** The job's update that ends the waiting request `id` without moving money (withdrawn, declined). */
function requestEnded(job: JobItem, id: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.job(job.id),
      UpdateExpression: 'REMOVE priceChange SET updatedAt = :now',
      // Not while an approval's refund is under way: that decision ends the request.
      ConditionExpression: 'priceChange.id = :id AND #status = :assigned AND (#money = :held OR attribute_not_exists(#money)) AND attribute_not_exists(deletingAt)',
      ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
      ExpressionAttributeValues: { ':id': id, ':assigned': 'assigned', ':held': 'held', ':now': new Date().toISOString() },
    },
  };
}

/** The history item's end: from `requested` only, so two answers cannot both land. */
function historyEnded(job: JobItem, waiting: PendingPriceChange, status: 'withdrawn' | 'declined', declineReason: string | null): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.priceChange(job.id, waiting.requestedAt, waiting.id),
      UpdateExpression: `SET #status = :status, answeredAt = :now${declineReason ? ', declineReason = :reason' : ''}`,
      ConditionExpression: '#status = :requested',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':requested': 'requested', ':now': new Date().toISOString(), ...(declineReason ? { ':reason': declineReason } : {}) },
    },
  };
}

const priceChangeEvent = (job: JobItem): TransactItem => jobEvent(JOB_EVENT.updated, { ...job, updatedAt: new Date().toISOString() }, 'priceChange');

/** The job as its assigned worker's request needs it, with the clearest refusal. */
async function assignedJobOf(jobId: string, workerId: string): Promise<JobItem> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  if (job.workerId !== workerId) throw forbidden(PRICE_CHANGE_TEXTS.onlyAssignedWorker);
  return job;
}

/** Why the job's price cannot change now, if it cannot: assigned with its money held and no decision under way. */
function notChangeable(job: JobItem) {
  if (job.status === 'assigned' && moneyStateOf(job) !== 'held') return moneyRefusal(job, 'approvePriceChange');
  if (!canPerform('approvePriceChange', job)) return conflict(PRICE_CHANGE_TEXTS.onlyAssigned);
  return undefined;
}

/**
 * POST /jobs/{id}/price-change: the assigned worker asks for a new price with a reason. One
 * transaction: the history item, the job naming it on condition that it is still assigned to
 * them, held, at the price they saw and with no request waiting, the poster's notice and the
 * job's event.
 */
export async function requestPriceChange(jobId: string, worker: ProfileItem, request: RequestPriceChange): Promise<PendingPriceChange> {
  return retryWhileStale(async () => {
    const job = await assignedJobOf(jobId, worker.id);
    const refusal = notChangeable(job);
    if (refusal) throw refusal;
    if (waitingOf(job)) throw conflict(PRICE_CHANGE_TEXTS.alreadyRequested);
    const problem = priceChangeAmountProblem(request.amount, job);
    if (problem) throw badRequest(problem);
    const requestedAt = new Date().toISOString();
    const waiting: PendingPriceChange = { id: randomUUID(), amount: request.amount, reason: request.reason, requestedAt };
    const item: PriceChangeItem = { id: waiting.id, jobId, workerId: worker.id, posterId: job.posterId, from: job.payment, amount: request.amount, reason: request.reason, status: 'requested', requestedAt };
    await transactWrite([
      { Put: { TableName: tableName(), Item: { ...keys.priceChange(jobId, requestedAt, waiting.id), type: 'priceChange', ...item }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'SET priceChange = :waiting, updatedAt = :now',
          ConditionExpression: '#status = :assigned AND workerId = :worker AND payment = :payment AND (#money = :held OR attribute_not_exists(#money)) AND attribute_not_exists(priceChange) AND attribute_not_exists(deletingAt)',
          ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
          ExpressionAttributeValues: { ':waiting': waiting, ':now': requestedAt, ':assigned': 'assigned', ':worker': worker.id, ':payment': job.payment, ':held': 'held' },
        },
      },
      priceChangeEvent(job),
      ...notificationWrites(
        notificationItem({
          userId: job.posterId,
          jobId,
          type: 'price_change_requested',
          title: PRICE_CHANGE_TEXTS.requestedTitle,
          message: PRICE_CHANGE_TEXTS.requestedMessage(worker.name, formatCents(request.amount), job.title, request.reason),
          metadata: { jobTitle: job.title, worker_id: worker.id, worker_name: worker.name },
        }),
      ),
    ]);
    return waiting;
  });
}

/** DELETE /jobs/{id}/price-change: the worker withdraws the request still waiting. */
export async function withdrawPriceChange(jobId: string, workerId: string): Promise<void> {
  await retryWhileStale(async () => {
    const job = await assignedJobOf(jobId, workerId);
    const waiting = waitingOf(job);
    if (!waiting) throw conflict(PRICE_CHANGE_TEXTS.noRequest);
    if (moneyStateOf(job) !== 'held') throw moneyRefusal(job, 'approvePriceChange');
    await transactWrite([requestEnded(job, waiting.id), historyEnded(job, waiting, 'withdrawn', null), priceChangeEvent(job)]);
  });
}

/** The job and its waiting request, for its poster's answer. */
async function waitingForPoster(jobId: string, posterId: string): Promise<{ job: JobItem; waiting: PendingPriceChange }> {
  return waitingOn(await getJob(jobId, { consistentRead: true }), posterId);
}

/** The request waiting on a job read before, for its poster's answer, with the clearest refusal. */
function waitingOn(job: JobItem | undefined, posterId: string): { job: JobItem; waiting: PendingPriceChange } {
  if (!job || (job.posterId !== posterId && job.workerId !== posterId)) throw notFound(MSG.jobs.notFound);
  if (job.posterId !== posterId) throw forbidden(PRICE_CHANGE_TEXTS.onlyPoster);
  const waiting = waitingOf(job);
  if (!waiting) throw conflict(job.status === 'assigned' ? PRICE_CHANGE_TEXTS.noRequest : PRICE_CHANGE_TEXTS.onlyAssigned);
  return { job, waiting };
}

/** POST /jobs/{id}/price-change/decline: the poster declines, with a reason if they give one; the worker is told. */
export async function declinePriceChange(jobId: string, posterId: string, reason: string | null): Promise<void> {
  await retryWhileStale(async () => {
    const { job, waiting } = await waitingForPoster(jobId, posterId);
    if (moneyStateOf(job) !== 'held') throw moneyRefusal(job, 'approvePriceChange');
    await transactWrite([
      requestEnded(job, waiting.id),
      historyEnded(job, waiting, 'declined', reason),
      priceChangeEvent(job),
      ...notificationWrites(
        notificationItem({ userId: job.workerId ?? '', jobId, type: 'price_change_declined', title: PRICE_CHANGE_TEXTS.declinedTitle, message: PRICE_CHANGE_TEXTS.declinedMessage(job.title, reason), metadata: { jobTitle: job.title } }),
      ),
    ]);
  });
}


/**
 * POST /jobs/{id}/price-change/approve: the poster approves the amount they were shown, and the
 * money moves first. One transaction puts the money decision and moves the job's money
 * (`held -> repricing` for a lower price, `held -> topping_up` for a higher one) on condition
 * that this request still waits; the executor refunds or charges the difference and its
 * settlement gives the job the new price (functions/money/job-plans.ts). The poster waits for it:
 * the job as it ended; the card step, when their bank wants them for a higher price's charge
 * (the same approval after it finishes it, reading the charge rather than making another); a
 * 503 while Stripe is down (the retry schedule settles it); or the refusal when Stripe refuses
 * for good. Approving a price the job already has answers as done (the card step's webhook may
 * have finished the approval first).
 */
export async function approvePriceChange(jobId: string, posterId: string, confirmedAmount: number): Promise<PriceChangeAnswer> {
  const decided = await retryWhileStale(async (): Promise<{ decision: MoneyDecision<unknown> } | { answer: PriceChangeAnswer }> => {
    const job = await getJob(jobId, { consistentRead: true });
    if (job?.posterId === posterId && job.status === 'assigned' && !job.priceChange && moneyStateOf(job) === 'held' && job.payment === confirmedAmount) return { answer: { status: 'approved', job: toPartyJob(job) } };
    const { job: current, waiting } = waitingOn(job, posterId);
    if (waiting.amount !== confirmedAmount) throw conflict(PRICE_CHANGE_TEXTS.changedSinceShown);
    const refusal = notChangeable(current);
    if (refusal) throw refusal;
    const price = priceChangeQuote(waiting.amount, current);
    const request = { id: waiting.id, requestedAt: waiting.requestedAt, amount: waiting.amount };
    let made: MoneyDecision<unknown>;
    if (price.charge > 0) {
      const charge = await topUpChargeCall(current, waiting.topUpIntentId, price.charge, { priceChangeId: waiting.id }, PRICE_CHANGE_TEXTS.noSavedCard);
      if ('cardStep' in charge) return { answer: cardStepOf(charge.cardStep, PRICE_CHANGE_TEXTS.cardNeeded) };
      made = topUpDecision(current, { priceChange: request }, price, charge.call);
    } else {
      // A refund in Stripe's dashboard may have given back so much that the difference is no longer held.
      if (price.refund > heldAmount(current) || price.refund <= 0) throw conflict(PRICE_CHANGE_TEXTS.differenceNotHeld);
      made = await priceChangeRefundDecision(current, request, price);
    }
    const action = price.charge > 0 ? 'raisePrice' : 'approvePriceChange';
    const { update } = jobTransition(current, action, { moneyDecisionId: made.id }, { by: { posterId }, condition: { expression: 'priceChange.id = :request', values: { ':request': waiting.id } } });
    await transactWrite([decisionPut(made), { Update: update }]);
    return { decision: made };
  });
  if ('answer' in decided) return decided.answer;
  const job = await carryOutForCaller(decided.decision);
  // Charged or not: a charge the bank wants the poster for is named on the request, for the card step.
  const waitingIntent = job.priceChange?.topUpIntentId;
  if (waitingIntent && job.priceChange?.id) return cardStepOf(await retrieveIntent(waitingIntent), PRICE_CHANGE_TEXTS.cardNeeded);
  return { status: 'approved', job: toPartyJob(job) };
}

/**
 * `payment_intent.succeeded` of a higher price's charge (metadata.topUpForJob): a poster who
 * finished the card step and left before approving again still has the approval finished,
 * while the job still waits for that very charge; a charge whose job moved on meanwhile is
 * refunded. False when the charge is not a top-up or is already the job's.
 */
export async function settleTopUpOfIntent(intentId: string, metadata: Record<string, string>): Promise<boolean> {
  const jobId = metadata.topUpForJob ?? '';
  const job = await getJob(jobId, { consistentRead: true, includeDeleting: true });
  if (job?.topUps?.some((charge) => charge.paymentIntentId === intentId)) return false;
  const intent = await retrieveIntent(intentId);
  const waiting = job ? waitingOf(job) : undefined;
  if (job && waiting && !job.deletingAt && waiting.id === metadata.priceChangeId && waiting.topUpIntentId === intentId && moneyStateOf(job) === 'held') {
    const price = priceChangeQuote(waiting.amount, job);
    const decision = topUpDecision(job, { priceChange: { id: waiting.id, requestedAt: waiting.requestedAt, amount: waiting.amount } }, price, { name: 'charge', move: { kind: 'topUpIntent', paymentIntent: intentId } });
    const { update } = jobTransition(job, 'raisePrice', { moneyDecisionId: decision.id }, { by: { posterId: job.posterId }, condition: { expression: 'priceChange.id = :request', values: { ':request': waiting.id } } });
    try {
      await transactWrite([decisionPut(decision), { Update: update }]);
    } catch (error) {
      // The poster's own approval got there first, or the job moved: the event is delivered again and reads it.
      if (error instanceof TransactionRefused) throw new LostRace(error);
      throw error;
    }
    await carryOutForCaller(decision);
    return true;
  }
  if (job && isMoneyPending(job)) throw new LostRace();
  await refundLateTopUp(job, jobId, intent, metadata);
  return true;
}


/** A history item as the parties and the admin see it: a request the job moved on from reads as lapsed. */
const toPriceChange = (item: PriceChangeItem, job: JobItem): PriceChange => ({
  id: item.id,
  jobId: item.jobId,
  workerId: item.workerId,
  from: item.from,
  amount: item.amount,
  reason: item.reason,
  status: item.status === 'requested' && waitingOf(job)?.id !== item.id ? 'lapsed' : item.status,
  requestedAt: item.requestedAt,
  answeredAt: item.answeredAt ?? null,
  declineReason: item.declineReason ?? null,
  refunded: item.refunded ?? null,
  charged: item.charged ?? null,
});

/** GET /jobs/{id}/price-changes: the job's price changes, newest first — its poster, the workers who asked, and the admin. */
export async function listPriceChanges(jobId: string, viewerId: string, viewerIsAdmin: boolean): Promise<{ items: PriceChange[] }> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  const items = await queryAll<PriceChangeItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':prefix': keys.priceChangePrefix() },
    ScanIndexForward: false,
  });
  // A worker unassigned since sees their own requests; nobody else but the poster and the admin sees any.
  const visible = viewerIsAdmin || job.posterId === viewerId ? items : items.filter((item) => item.workerId === viewerId);
  if (visible.length === 0 && !viewerIsAdmin && job.posterId !== viewerId && job.workerId !== viewerId) throw notFound(MSG.jobs.notFound);
  return { items: visible.map((item) => toPriceChange(item, job)) };
}
