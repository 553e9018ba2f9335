import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PendingMoneyDecision } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { db, tableName } from '../lib/db.js';
import { notFound } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { queryEveryShard } from '../lib/sharded-lists.js';
import { isStripeError } from '../lib/stripe-errors.js';
import { TransactionRefused, retryLostRaces, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { transactLedger } from './ledger.js';
import { getDecision, type DecisionAction, type MoneyDecision, type Plan } from './decision.js';
import { priceChangePlan, releasePlan, refundPlan, repricePlan, reversePlan, splitPlan, topUpPlan, topUpRefundPlan, voidPlan } from './job-plans.js';
import { payoutPlan } from './payout-plan.js';
import { makeMove, type MoveResult } from './stripe-moves.js';
import { tipChargePlan, tipRefundPlan, tipTransferPlan } from './tip-plans.js';

/**
 * The executor of the money process (issue 43, DECISIONS.md "Wave 5"): the one place a
 * transition meets Stripe. Every money transition — a release, a refund, a split, a reversal, a
 * draft's cancellation, a tip's charge, transfer or refund, an Instant Payout — goes through the
 * same three steps:
 *
 * 1. **Decide.** The caller writes the decision (decision.ts) in the transaction that checks its
 *    guards and moves the money to its pending state (shared/job-process.ts: `held ->
 *    releasing`, ...). A refused condition is the caller's refusal; nothing was asked of Stripe.
 * 2. **Carry out** (`carryOut`). Each declared Stripe call, in order, keyed by the decision and
 *    the call (stripe-moves.ts), so whoever carries a decision out — the request that decided
 *    it, a second click, Stripe's webhook for the object, the retry schedule, the admin's retry —
 *    moves the money once.
 * 3. **Settle.** One transaction ends the decision (out of the pending list) with what its plan
 *    writes: the final money state, the ledger's movements, the payment row, the notices.
 *
 * A definite refusal of the first call (Stripe says the request itself is wrong: an account that
 * cannot receive, a charge already refunded) hands the money back: the plan's rollBack, in one
 * transaction with the decision's end, and the caller gets the plan's answer. Anything else —
 * Stripe unreachable or failing, a refusal after money already moved — leaves the decision
 * pending with its error: answered 503 to the caller, retried every few minutes by the schedule
 * (`retryPendingDecisions`), shown on the admin console with a retry, alarmed when it is old,
 * and counted by reconciliation. Never silent, never half-written.
 */

// Each plan's context is its own; the registry holds them as plans of some context.
const PLANS: Record<DecisionAction, Plan<never>> = {
  release: releasePlan,
  refund: refundPlan,
  split: splitPlan,
  reverse: reversePlan,
  reprice: repricePlan,
  priceChange: priceChangePlan,
  topUp: topUpPlan,
  topUpRefund: topUpRefundPlan,
  void: voidPlan,
  tipCharge: tipChargePlan,
  tipTransfer: tipTransferPlan,
  tipRefund: tipRefundPlan,
  payout: payoutPlan,
};
const planOf = <Context>(decision: MoneyDecision<Context>) => PLANS[decision.action] as unknown as Plan<Context>;

/** Stripe's definite refusals: the request itself is wrong, and the same request will be refused again. */
const isDefiniteRefusal = (error: unknown) => isStripeError(error) && (error.type === 'StripeInvalidRequestError' || error.type === 'StripeCardError');

/** A decision Stripe refused for good: handed back by its plan, answered with the plan's refusal. */
export class MoneyRefused extends Error {
  constructor(
    readonly decision: MoneyDecision<unknown>,
    readonly answer: Error,
  ) {
    super(answer.message);
    this.name = 'MoneyRefused';
  }
}

/** The decision's end: out of the pending list, with what Stripe answered (or why it was handed back). */
function decisionEnd(decision: MoneyDecision<unknown>, status: 'settled' | 'rolledBack', results: Record<string, MoveResult> | undefined, error?: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.moneyDecision(decision.id),
      UpdateExpression: `SET #status = :status, endedAt = :now${results ? ', results = :results' : ''}${error ? ', lastError = :error' : ''} REMOVE gsi1pk, gsi1sk`,
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':pending': 'pending', ':now': new Date().toISOString(), ...(results ? { ':results': results } : {}), ...(error ? { ':error': error } : {}) },
    },
  };
}

/** Writes a decision's end with its plan's items; a decision ended meanwhile by another carrier is answered as it ended. */
async function endDecision(decision: MoneyDecision<unknown>, end: TransactItem, items: TransactItem[]): Promise<MoneyDecision<unknown> | undefined> {
  try {
    await retryLostRaces(() => transactLedger([end, ...items]));
    return undefined;
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    const now = await getDecision(decision.id);
    if (now && now.status !== 'pending') return now;
    // The decision is still pending but another item refused: the plan's view of the world is
    // wrong. Left pending (and so alarmed) rather than half-written.
    throw new Error(`decision ${decision.id} could not end: ${error.message}`, { cause: error });
  }
}

/** A failed attempt on the decision, with its error; a call Stripe refused for good counts a refusal (its next attempt a new request). */
async function noteFailure(decision: MoneyDecision<unknown>, error: unknown, refusedCall?: string): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  logger.warn('money decision not carried out yet', { decisionId: decision.id, action: decision.action, error: message });
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.moneyDecision(decision.id),
        UpdateExpression: `SET attempts = attempts + :one, lastError = :error, lastAttemptAt = :now${refusedCall ? ', refusals.#call = if_not_exists(refusals.#call, :zero) + :one' : ''}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status', ...(refusedCall ? { '#call': refusedCall } : {}) },
        ExpressionAttributeValues: { ':one': 1, ':error': message.slice(0, 1000), ':now': new Date().toISOString(), ':pending': 'pending', ...(refusedCall ? { ':zero': 0 } : {}) },
      }),
    )
    // Ended meanwhile by another carrier: nothing to note.
    .catch((noteError: unknown) => logger.info('failure not noted on the decision', { decisionId: decision.id, error: String(noteError) }));
}

/**
 * Carries a decision out: its Stripe calls, then its settlement. Answers the decision as it
 * ended (settled, with Stripe's results). Safe to call any number of times, at once or after a
 * crash: a settled decision answers as it is, a handed-back one throws its refusal again.
 */
export async function carryOut<Context>(decisionOrId: MoneyDecision<Context> | string): Promise<MoneyDecision<Context> & { results: Record<string, MoveResult> }> {
  const decision = typeof decisionOrId === 'string' ? await getDecision<Context>(decisionOrId) : decisionOrId;
  if (!decision) throw notFound(MSG.admin.decisionNotFound);
  const ended = (done: MoneyDecision<unknown>) => {
    if (done.status === 'settled') return done as MoneyDecision<Context> & { results: Record<string, MoveResult> };
    throw new MoneyRefused(done, new Error(done.lastError ?? MSG.payments.failed));
  };
  if (decision.status !== 'pending') return ended(decision);
  const plan = planOf(decision);
  const results: Record<string, MoveResult> = {};
  for (const [index, call] of decision.calls.entries()) {
    try {
      const tag = { decision: decision.id, call: call.name, refusals: decision.refusals?.[call.name] ?? 0, ...(decision.jobId ? { jobId: decision.jobId } : {}) };
      results[call.name] = await makeMove(call.move, tag, decision.decidedAt);
    } catch (error) {
      if (index === 0 && plan.rollBack && isDefiniteRefusal(error)) {
        const stripeError = error as { code?: string; message: string };
        const { items, answer } = await plan.rollBack(decision, { code: stripeError.code, message: stripeError.message });
        const other = await endDecision(decision, decisionEnd(decision, 'rolledBack', undefined, stripeError.message), items);
        if (other) return ended(other);
        logger.info('money decision handed back', { decisionId: decision.id, action: decision.action, stripeCode: stripeError.code });
        throw new MoneyRefused(decision, answer);
      }
      await noteFailure(decision, error, isDefiniteRefusal(error) ? call.name : undefined);
      throw error;
    }
  }
  let settlement: TransactItem[];
  try {
    settlement = await plan.settle(decision, results);
  } catch (error) {
    // Settled meanwhile by another carrier (Stripe's webhook for the same refund): what its
    // settlement wrote (an offer accepted) refuses this one's reads. Answered as it ended.
    const now = await getDecision(decision.id);
    if (now && now.status !== 'pending') return ended(now);
    throw error;
  }
  const other = await endDecision(decision, decisionEnd(decision, 'settled', results), settlement);
  if (other) return ended(other);
  await plan.settled?.(decision, results);
  return { ...decision, status: 'settled', results };
}

/**
 * Carries a decision out for a caller that does not wait on it (a cancel's refund, a delete's,
 * Stripe's webhook for one of its objects): a failure leaves it pending, for the retry schedule.
 */
export async function carryOutQuietly(decision: MoneyDecision<unknown> | string): Promise<void> {
  await carryOut(decision).catch((error: unknown) =>
    logger.warn('money decision left to the retry schedule', { decisionId: typeof decision === 'string' ? decision : decision.id, error: error instanceof Error ? error.message : String(error) }),
  );
}

/** How long a decision may be pending before the schedule carries it out again (its request may still be at it). */
export const RETRY_PENDING_AFTER_SECONDS = 120;
/** A decision pending longer is overdue: the alarm's metric, reconciliation's difference. */
export const OVERDUE_AFTER_SECONDS = 900;

/** What one run of the retry schedule did. */
export interface PendingRetryRun {
  retried: number;
  settled: number;
  handedBack: number;
  stillPending: number;
  /** Pending longer than OVERDUE_AFTER_SECONDS after this run. */
  overdue: number;
}

/** Every pending decision decided before `before` (ISO), oldest first per shard. */
export function pendingDecisionsBefore(before: string): Promise<Array<MoneyDecision<unknown>>> {
  return queryEveryShard<MoneyDecision<unknown>>(keys.pendingMoneyDecisions().partitions, {
    IndexName: 'GSI1',
    KeyConditionExpression: '#sk < :before',
    ExpressionAttributeNames: { '#sk': 'gsi1sk' },
    ExpressionAttributeValues: { ':before': before },
  });
}

/**
 * The retry schedule (RECURRING_SCHEDULES.moneyDecisions): carries out again every decision
 * pending for more than RETRY_PENDING_AFTER_SECONDS, one at a time (each is a few Stripe calls),
 * and counts what is still pending past OVERDUE_AFTER_SECONDS for the alarm.
 */
export async function retryPendingDecisions(now = new Date(), retryAfterSeconds = RETRY_PENDING_AFTER_SECONDS): Promise<PendingRetryRun> {
  const due = await pendingDecisionsBefore(new Date(now.getTime() - retryAfterSeconds * 1000).toISOString());
  const run: PendingRetryRun = { retried: due.length, settled: 0, handedBack: 0, stillPending: 0, overdue: 0 };
  const overdueBefore = now.getTime() - OVERDUE_AFTER_SECONDS * 1000;
  for (const decision of due) {
    try {
      await carryOut(decision);
      run.settled += 1;
    } catch (error) {
      if (error instanceof MoneyRefused) {
        run.handedBack += 1;
        continue;
      }
      run.stillPending += 1;
      if (Date.parse(decision.decidedAt) < overdueBefore) run.overdue += 1;
      logger.warn('pending money decision still not carried out', { decisionId: decision.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return run;
}

export const toPendingDecision = (decision: MoneyDecision<unknown>): PendingMoneyDecision => ({
  id: decision.id,
  action: decision.action,
  jobId: decision.jobId ?? null,
  label: decision.label,
  amount: decision.amount,
  decidedAt: decision.decidedAt,
  attempts: decision.attempts,
  lastError: decision.lastError ?? null,
});

/** How many pending decisions the console lists: more than a handful is an outage, which the alarm reports. */
const CONSOLE_LIMIT = 100;

/** GET /admin/money/decisions: the pending decisions, oldest first (one Query per shard). */
export async function listPendingDecisions(): Promise<PendingMoneyDecision[]> {
  const pending = await pendingDecisionsBefore('~');
  return pending
    .sort((a, b) => a.decidedAt.localeCompare(b.decidedAt))
    .slice(0, CONSOLE_LIMIT)
    .map(toPendingDecision);
}
