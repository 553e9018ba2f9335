import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpError } from '../lib/errors.js';
import { db, tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import type { MoveResult, StripeMove } from './stripe-moves.js';

/**
 * A decision of the money process, stored before Stripe is called (DECISIONS.md "Wave 5"): the
 * Stripe calls it makes, in order, and what its settlement needs. While `pending` it is in the
 * pending list (GSI1 `MONEYPENDING#<shard>`, oldest first), which the schedule retries, the admin
 * console shows and reconciliation counts; settling or handing it back takes it out.
 */
export interface MoneyDecision<Context = Record<string, unknown>> {
  /** `<action>.<subject>.<nonce>` (dots: it travels in URLs as it is); with a call's name, the idempotency key of its Stripe move. */
  id: string;
  action: DecisionAction;
  /** The ledger scope its movements go to: `job:<jobId>`, or `worker:<workerId>` for a payout. */
  scope: string;
  jobId?: string;
  /** What the admin console names it by (the job's title, or the worker's payout). */
  label: string;
  /** The money at stake, in cents (the console's figure). */
  amount: number;
  calls: PlannedCall[];
  context: Context;
  status: 'pending' | 'settled' | 'rolledBack';
  decidedAt: string;
  /** Failed attempts to carry it out, with the last one's error: what the console shows beside it. */
  attempts: number;
  /** Per call, how often Stripe refused it for good (its next attempt is a new request: stripe-moves.ts). */
  refusals: Record<string, number>;
  lastError?: string;
  lastAttemptAt?: string;
  /** Once settled: what Stripe answered to each call (a later request for the same decision is answered with it). */
  results?: Record<string, MoveResult>;
  endedAt?: string;
}

export interface PlannedCall {
  name: string;
  move: StripeMove;
}

/** The transitions the executor carries out (shared/job-process.ts names them on the job; tips and payouts have their own). */
export const DECISION_ACTIONS = ['release', 'refund', 'split', 'reverse', 'reprice', 'priceChange', 'topUp', 'topUpRefund', 'void', 'tipCharge', 'tipTransfer', 'tipRefund', 'payout'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/**
 * What a decision of one action does beside its Stripe calls, each as the items of one
 * transaction: its settlement (the states it ends in, its ledger movements, the notices), and,
 * for the actions that can give the money back when Stripe refuses the first call, the items
 * that hand it back and the refusal the caller is answered with.
 */
export interface Plan<Context> {
  settle(decision: MoneyDecision<Context>, results: Record<string, MoveResult>): Promise<TransactItem[]>;
  rollBack?(decision: MoneyDecision<Context>, refusal: { code?: string; message: string }): Promise<{ items: TransactItem[]; answer: HttpError }>;
  /** After the settlement is written: the admin console's live push. */
  settled?(decision: MoneyDecision<Context>, results: Record<string, MoveResult>): Promise<void>;
}

/**
 * A new decision of `action` about `subject` (a job, a worker). Its nonce is random, but for a
 * decision of which there may be only one (a draft's cancellation), which its callers name.
 */
export function newDecision<Context>(
  action: DecisionAction,
  subject: string,
  fields: Pick<MoneyDecision<Context>, 'scope' | 'label' | 'amount' | 'calls' | 'context'> & { jobId?: string },
  nonce: string = randomUUID().slice(0, 8),
): MoneyDecision<Context> {
  return { id: `${action}.${subject}.${nonce}`, action, ...fields, status: 'pending', decidedAt: new Date().toISOString(), attempts: 0, refusals: {} };
}

/** The decision's Put, for the transaction that writes its conditions (a decision is written once). */
export function decisionPut(decision: MoneyDecision<unknown>): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.moneyDecision(decision.id),
        type: 'moneyDecision',
        ...decision,
        gsi1pk: keys.pendingMoneyDecisions().partitionOf(decision.id),
        gsi1sk: timeOrdered(decision.decidedAt, decision.id),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getDecision<Context>(decisionId: string): Promise<MoneyDecision<Context> | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.moneyDecision(decisionId), ConsistentRead: true }));
  return Item as MoneyDecision<Context> | undefined;
}

/**
 * A ledger movement's id for one of a decision's movements: unique in the job's scope and the
 * same however often the decision settles, so it is written once.
 */
export function movementIdOf(decision: Pick<MoneyDecision<unknown>, 'id'>, name: string): string {
  const [action, , nonce] = decision.id.split('.');
  return `${action}:${nonce}:${name}`;
}

/** A result of the kind a plan expects, or an error that says the calls and plan disagree. */
export function resultOf<Kind extends MoveResult['kind']>(results: Record<string, MoveResult>, name: string, kind: Kind): Extract<MoveResult, { kind: Kind }> {
  const result = results[name];
  if (result?.kind !== kind) throw new Error(`decision call ${name} answered ${result?.kind ?? 'nothing'}, not ${kind}`);
  return result as Extract<MoveResult, { kind: Kind }>;
}
