import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { TipAnswer } from '../../shared/api.js';
import type { TipState } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { tipAmountProblem, tipWindowEndsAt } from '../../shared/tips.js';
import { db, tableName } from '../lib/db.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getJob, toPartyJob, type JobItem } from '../jobs/jobs.js';
import { jobScope } from './ledger.js';
import { decisionPut, newDecision, type MoneyDecision } from './decision.js';
import { MoneyRefused, carryOut } from './executor.js';
import { retrieveIntent, type ChargedIntent } from './stripe-moves.js';
import type { ChargedTipContext, TipContext, TipRefundContext } from './tip-plans.js';
import { isPaymentAccountComplete } from './payment-accounts.js';
import { getProfile } from '../people/profiles.js';

/**
 * Tips (DECISIONS.md "Wave 3"; Wave 5 "Tips in the process"; shared/job-process.ts TIP_PROCESS):
 * one per job, its claim (keys.tip) written with the decision to charge it. The charge is
 * off-session, on the card the job's payment saved; when the bank wants the poster the answer
 * sends them to the card step, and the same request after it goes on. Once charged, the
 * transfer to the worker is decided only while the job's money is still released to a worker who
 * still has an account (one transaction with those conditions); otherwise the tip is refunded.
 * Each is a decision the executor carries out, so the poster is charged once and every cent is
 * in the ledger whatever happens between the card step and its end.
 */

/** The tip of a job as stored. Claims written before Wave 5 have `pending` (≈ charging or awaiting the card) or `succeeded` (tipped). */
interface TipItem {
  jobId: string;
  posterId: string;
  amount: number;
  status: TipState | 'pending' | 'succeeded';
  paymentIntentId?: string;
  /** The decision that owns the tip now: its charge, then its transfer or refund. */
  decisionId?: string;
}

async function getTip(jobId: string): Promise<TipItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.tip(jobId), ConsistentRead: true }));
  return Item as TipItem | undefined;
}

/** What the poster's request may tip: their own paid job, within the window, an amount within the limits. */
function checkTippable(job: JobItem, amount: number): void {
  if (job.status !== 'paid' || !job.workerId) throw conflict(MSG.tips.onlyPaid);
  // Jobs released before releasedAt was kept: their last change was the release.
  if (Date.now() > Date.parse(tipWindowEndsAt(job.releasedAt ?? job.updatedAt))) throw conflict(MSG.tips.windowClosed);
  const problem = tipAmountProblem(amount, job.payment);
  if (problem) throw badRequest(problem);
  if (!job.stripePaymentMethodId) throw conflict(MSG.tips.noSavedCard);
}

/** The job's money as a tip's transfer needs it: paid and released (a job stored before money states: paid). */
const JOB_STILL_RELEASED = '#status = :paid AND (moneyState = :released OR attribute_not_exists(moneyState))';

/**
 * Decides the charge: the claim (one per job), the decision and the job's tip state, one
 * transaction conditional on the job being paid and released with no tip; then the executor
 * charges the card.
 */
async function decideCharge(job: JobItem, amount: number, customer: string): Promise<void> {
  const context: TipContext = { posterId: job.posterId, workerId: job.workerId!, title: job.title, amount };
  const decision = newDecision<TipContext>('tipCharge', job.id, {
    scope: jobScope(job.id),
    jobId: job.id,
    label: `Tip for ${job.title}`,
    amount,
    calls: [{ name: 'charge', move: { kind: 'tipCharge', amount, customer, paymentMethod: job.stripePaymentMethodId!, description: `Tip for ${job.title}`, jobId: job.id, posterId: job.posterId } }],
    context,
  });
  try {
    await retryLostRaces(() =>
      transactWrite([
        decisionPut(decision),
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.tip(job.id), type: 'tip', jobId: job.id, posterId: job.posterId, amount, status: 'charging', decisionId: decision.id, createdAt: decision.decidedAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.job(job.id),
            UpdateExpression: 'SET tipState = :charging',
            ConditionExpression: `${JOB_STILL_RELEASED} AND attribute_not_exists(tip) AND posterId = :poster`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':charging': 'charging', ':paid': 'paid', ':released': 'released', ':poster': job.posterId },
          },
        },
      ]),
    );
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    // Another request claimed it first (a double submit): it goes on from the claim.
    if (error.failed(1)) return;
    throw conflict(MSG.tips.onlyPaid);
  }
  await carryOut(decision);
}

/**
 * Decides what a succeeded charge becomes: the worker's transfer while the job's money is still
 * released to them and their account is still there (one transaction with both conditions), or
 * else the poster's refund. The claim's condition makes it once, whoever gets here first.
 */
async function decideOutcome(jobId: string, tip: TipItem, intent: ChargedIntent): Promise<void> {
  const job = await getJob(jobId, { consistentRead: true });
  const worker = job?.workerId ? await getProfile(job.workerId) : undefined;
  const context: ChargedTipContext = { posterId: tip.posterId, workerId: job?.workerId ?? '', title: job?.title ?? intent.description, amount: tip.amount, paymentIntentId: intent.id, cardFee: intent.cardFee };
  const claim = (decision: MoneyDecision<unknown>, status: TipState): TransactItem => ({
    Update: {
      TableName: tableName(),
      Key: keys.tip(jobId),
      UpdateExpression: 'SET #status = :status, decisionId = :decision, paymentIntentId = :intent',
      ConditionExpression: '#status IN (:charged, :awaiting, :legacy) AND (attribute_not_exists(paymentIntentId) OR paymentIntentId = :intent)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':decision': decision.id, ':intent': intent.id, ':charged': 'charged', ':awaiting': 'awaiting_card', ':legacy': 'pending' },
    },
  });
  const owner = async () => (await getTip(jobId))?.decisionId;

  if (job && worker?.stripeAccountId && !worker.deletedAt) {
    const transfer = newDecision<ChargedTipContext>('tipTransfer', jobId, {
      scope: jobScope(jobId),
      jobId,
      label: `Tip for ${job.title}`,
      amount: tip.amount,
      calls: [
        {
          name: 'transfer',
          move: { kind: 'transfer', amount: tip.amount, destination: worker.stripeAccountId, transferGroup: jobId, ...(intent.chargeId ? { sourceCharge: intent.chargeId } : {}), metadata: { jobId, workerId: worker.id, tip: 'true' } },
        },
      ],
      context: { ...context, workerId: worker.id },
    });
    try {
      await retryLostRaces(() =>
        transactWrite([
          decisionPut(transfer),
          claim(transfer, 'transferring'),
          {
            Update: {
              TableName: tableName(),
              Key: keys.job(jobId),
              UpdateExpression: 'SET tipState = :transferring',
              ConditionExpression: `${JOB_STILL_RELEASED} AND workerId = :worker AND attribute_not_exists(deletingAt)`,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':transferring': 'transferring', ':paid': 'paid', ':released': 'released', ':worker': worker.id },
            },
          },
          // The worker's account is still theirs: an account deleted meanwhile refuses the transfer.
          { ConditionCheck: { TableName: tableName(), Key: keys.profile(worker.id), ConditionExpression: 'attribute_not_exists(deletedAt) AND stripeAccountId = :account', ExpressionAttributeValues: { ':account': worker.stripeAccountId } } },
        ]),
      );
      await carryOut(transfer);
      return;
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      // Decided by another request first: that decision goes on.
      if (error.failed(1)) return void (await carryOutOwner(await owner()));
    }
  }
  const why = !job ? MSG.tips.refundedJobGone : worker?.deletedAt || !worker?.stripeAccountId ? MSG.tips.refundedWorkerLeft : MSG.tips.refundedPaymentReversed;
  const refund = newDecision<TipRefundContext>('tipRefund', jobId, {
    scope: jobScope(jobId),
    jobId,
    label: `Tip for ${context.title}`,
    amount: tip.amount,
    calls: [{ name: 'refund', move: { kind: 'refund', paymentIntent: intent.id, reason: why } }],
    context: { ...context, why },
  });
  try {
    await retryLostRaces(() => transactWrite([decisionPut(refund), claim(refund, 'refunding')]));
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    return void (await carryOutOwner(await owner()));
  }
  await carryOut(refund);
}

const carryOutOwner = async (decisionId: string | undefined) => {
  if (decisionId) await carryOut(decisionId);
};

/**
 * Takes the tip on from where its claim is: the charge finished (a crash, the webhook first),
 * the card step done or not, the outcome decided or carried out. Answers the tip's state after.
 */
async function goOn(jobId: string): Promise<{ tip: TipItem; intent?: ChargedIntent }> {
  let tip = await getTip(jobId);
  if (!tip) throw notFound(MSG.jobs.notFound);
  if (tip.status === 'charging' || tip.status === 'transferring' || tip.status === 'refunding') {
    await carryOutOwner(tip.decisionId);
    tip = (await getTip(jobId))!;
  }
  if (tip.status === 'charged' || tip.status === 'awaiting_card' || tip.status === 'pending') {
    if (!tip.paymentIntentId) return { tip };
    const intent = await retrieveIntent(tip.paymentIntentId);
    if (intent.status !== 'succeeded') return { tip, intent };
    await decideOutcome(jobId, tip, intent);
    tip = (await getTip(jobId))!;
  }
  return { tip };
}

/**
 * POST /jobs/{id}/tip: the poster tips the worker of their paid job, at most the job's payment,
 * within 7 days of the release. Paid; or the card step (3-D Secure, a decline) with the tip's
 * PaymentIntent, after which the same request finishes it; or, when the job's money was reversed
 * or its worker left before the charge succeeded, a 409 saying the tip was refunded.
 */
export async function addTip(jobId: string, callerId: string, amount: number): Promise<TipAnswer> {
  const found = await getJob(jobId);
  if (!found) throw notFound(MSG.jobs.notFound);
  if (found.posterId !== callerId) throw forbidden(MSG.tips.onlyPoster);
  // The same tip sent again (its webhook settled it first, a retry) is answered as done.
  if (found.tip !== undefined) {
    if (found.tip === amount) return { status: 'paid', job: toPartyJob(found) };
    throw conflict(MSG.tips.alreadyTipped);
  }
  const claimed = await getTip(jobId);
  if (claimed && claimed.amount !== amount) throw conflict(claimed.status === 'tipped' || claimed.status === 'succeeded' ? MSG.tips.alreadyTipped : MSG.tips.otherAmountInProgress);
  if (!claimed) {
    checkTippable(found, amount);
    const [poster, worker] = await Promise.all([getProfile(found.posterId), getProfile(found.workerId!)]);
    if (!poster?.stripeCustomerId) throw conflict(MSG.tips.noSavedCard);
    if (!worker || !isPaymentAccountComplete(worker)) throw conflict(MSG.payments.workerSetupIncomplete);
    await decideCharge(found, amount, poster.stripeCustomerId);
  }
  let outcome;
  try {
    outcome = await goOn(jobId);
  } catch (error) {
    if (error instanceof MoneyRefused) throw error.answer;
    throw error;
  }
  const { tip, intent } = outcome;
  if (tip.status === 'refunded' || tip.status === 'refunding') throw conflict(MSG.tips.refundedInstead);
  if (intent && intent.status !== 'succeeded') {
    return { status: 'card_needed', message: MSG.tips.cardNeeded, payment: { paymentIntentId: intent.id, clientSecret: intent.clientSecret, amount: intent.amount } };
  }
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  if (tip.status !== 'tipped' && tip.status !== 'succeeded') throw conflict(MSG.payments.moneyDecisionUnderWay);
  return { status: 'paid', job: toPartyJob(job) };
}

/**
 * `payment_intent.succeeded` of a tip (metadata.tipForJob): a poster who confirmed on the card
 * step and left before the app sent the tip again still has it settled — transferred, or
 * refunded when the job's money or its worker went meanwhile. False when the tip is unknown or
 * not this intent's.
 */
export async function settleTipOfIntent(intent: Pick<Stripe.PaymentIntent, 'id' | 'metadata'>): Promise<boolean> {
  const jobId = intent.metadata.tipForJob ?? '';
  const tip = await getTip(jobId);
  // The charge decision is the intent's own (its metadata names it) while the claim does not know the intent yet.
  if (!tip || (tip.paymentIntentId !== undefined && tip.paymentIntentId !== intent.id) || (tip.paymentIntentId === undefined && tip.decisionId !== intent.metadata.decision)) return false;
  await goOn(jobId);
  return true;
}
