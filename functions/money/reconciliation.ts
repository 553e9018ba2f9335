import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { LedgerMovement, StripeObjectRef } from '../../shared/ledger.js';
import { formatCents } from '../../shared/money.js';
import * as z from '../../shared/zod.js';
import { db, tableName } from '../lib/db.js';
import { queryEveryShard } from '../lib/sharded-lists.js';
import { stripe } from '../lib/stripe.js';
import { keys } from '../table.js';
import { OVERDUE_AFTER_SECONDS, pendingDecisionsBefore } from './executor.js';
import { userOfAccount } from './payment-accounts.js';
import { getProfile } from '../people/profiles.js';

/**
 * Reconciliation of the ledger with Stripe (issue 34, issue 43): every Stripe object that moved
 * money since the last checkpoint (card charges by their payment intent, refunds, transfers,
 * transfer reversals, a chargeback's withdrawal and reinstatement, and the payouts of the
 * connected accounts the window touched) must be a ledger movement naming it with the same
 * amount, and every ledger movement naming a Stripe object in that time must find it at Stripe
 * with that amount. A money decision pending past its time is a difference too (its money is
 * neither here nor there). What the platform lost on a job — a move Stripe made after the worker
 * was paid, a reversal a cash-out left short — agrees with Stripe and is reported beside
 * (docs/decisions/0282-reconciliation-what-is-compared-and-how.md, 0302).
 */

/**
 * How far before the checkpoint each run looks again: a Stripe object and its movement are
 * written seconds apart (a webhook's movement later than its object), so a pair that straddled
 * the last run's end is seen whole by this one.
 */
export const RECONCILIATION_MARGIN_SECONDS = 3_600;
/**
 * Differences about anything younger than this are left to the next run, which looks at them
 * again: a Stripe call answered moments ago may not have its movement written yet.
 */
export const DEFAULT_GRACE_SECONDS = 300;
/** The checkpoint item keeps this many differences (an item holds 400 KB); the run answers them all. */
const STORED_DIFFERENCES = 100;

/** A Stripe object that moves money, as reconciliation names it: the ledger's references, a charge made without a payment intent, and a money decision still pending. */
export type ReconciledObjectKind = StripeObjectRef['kind'] | 'charge' | 'decision';

export type DifferenceKind =
  /** Stripe has it, the ledger names it nowhere. */
  | 'unknown_to_ledger'
  /** Both have it, with different amounts. */
  | 'amount_differs'
  /** A ledger movement names it, Stripe does not have it (or not as money that moved). */
  | 'unknown_to_stripe'
  /** A money decision still waiting for its Stripe calls past its time: its money is not yet where it is going. */
  | 'pending_decision';

export interface ReconciliationDifference {
  kind: DifferenceKind;
  object: { kind: ReconciledObjectKind; id: string };
  /** The job it concerns (the object's metadata.jobId or transfer group, or the movement's scope); null where neither names one. */
  jobId: string | null;
  /** The worker whose own money it is (a payout of their connected account). */
  workerId?: string;
  /** Cents at Stripe; absent when Stripe does not have it. */
  stripeAmount?: number;
  /** Cents in the ledger (all movements naming the object); absent when the ledger does not. */
  ledgerAmount?: number;
  /** When the object was made (Stripe's) or the movement written, ISO 8601. */
  at: string;
}

/** What the platform put into a job beyond what it took (shared/ledger.ts `platform_loss`, `unrecovered`): the ledger agrees with Stripe, and someone should know. */
export interface ReconciliationLoss {
  jobId: string;
  amount: number;
  /** What made it: a chargeback, a refund in Stripe after release, a reversal a cash-out left short. */
  kind: 'platform_loss' | 'unrecovered';
  movementId: string;
  at: string;
}

export interface ReconciliationResult {
  /** The window compared: Stripe objects and movements from `from` (the checkpoint less the margin) up to `checkedThrough`. */
  from: string;
  checkedThrough: string;
  ranAt: string;
  stripeObjects: number;
  movements: number;
  differences: ReconciliationDifference[];
  losses: ReconciliationLoss[];
}

/** The checkpoint item: where the next run starts (less the margin), and what this one found. */
export interface ReconciliationCheckpoint extends Omit<ReconciliationResult, 'differences'> {
  differenceCount: number;
  /** The first STORED_DIFFERENCES of them. */
  differences: ReconciliationDifference[];
}

/** What a run may be asked: from when (instead of the checkpoint), and how long a grace for the newest objects. */
export const reconciliationInputSchema = z.object({
  since: z.optional(z.iso.datetime()),
  graceSeconds: z.optional(z.int().check(z.minimum(0))),
});
export type ReconciliationInput = z.infer<typeof reconciliationInputSchema>;

/** One Stripe object that moved money, as compared. */
interface StripeRecord {
  object: ReconciliationDifference['object'];
  amount: number;
  created: number;
  jobId: string | null;
  workerId?: string;
}

/** The movements naming one Stripe object. */
interface LedgerRecord {
  ref: StripeObjectRef;
  amount: number;
  /** The latest movement's time. */
  at: string;
  scope: string;
}

const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();
const secondsOfIso = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The job a Stripe object's metadata names (a tip's intent names it as tipForJob), else its transfer group. */
const jobOf = (metadata: Stripe.Metadata | null, transferGroup?: string | null): string | null => metadata?.jobId ?? metadata?.tipForJob ?? transferGroup ?? null;

/** The job of a movement's scope (`job:<id>`), null for a worker's own (`worker:<id>`). */
const jobOfScope = (scope: string): string | null => (scope.startsWith('job:') ? scope.slice('job:'.length) : null);
const workerOfScope = (scope: string): string | undefined => (scope.startsWith('worker:') ? scope.slice('worker:'.length) : undefined);

const isMissing = (error: unknown) => (error as { statusCode?: number } | undefined)?.statusCode === 404;

/** Whether a refund moved (or is moving) money: failed and canceled ones did not. */
const refundMoved = (refund: Stripe.Refund) => refund.status !== 'failed' && refund.status !== 'canceled';

/**
 * Every Stripe object of the platform that moved money from `fromSeconds` on: succeeded
 * charges (as their payment intent, which the ledger names), refunds, transfers, and transfer
 * reversals (found as the platform's `transfer_refund` balance transactions, Stripe having no
 * list of all reversals).
 */
async function stripeRecords(client: Stripe, fromSeconds: number, jobOfIntent: (intentId: string) => Promise<string | null>, knownIntents: Map<string, string | null>): Promise<StripeRecord[]> {
  const created = { gte: fromSeconds };
  const records: StripeRecord[] = [];
  for await (const charge of client.charges.list({ created, limit: 100 })) {
    if (charge.status !== 'succeeded') continue;
    const jobId = jobOf(charge.metadata, charge.transfer_group);
    const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
    if (intent) knownIntents.set(intent, jobId);
    records.push({ object: intent ? { kind: 'payment_intent', id: intent } : { kind: 'charge', id: charge.id }, amount: charge.amount, created: charge.created, jobId });
  }
  for await (const refund of client.refunds.list({ created, limit: 100 })) {
    if (!refundMoved(refund)) continue;
    const intent = typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null);
    const jobId = refund.metadata?.jobId ?? (intent ? await jobOfIntent(intent) : null);
    records.push({ object: { kind: 'refund', id: refund.id }, amount: refund.amount, created: refund.created, jobId });
  }
  for await (const transfer of client.transfers.list({ created, limit: 100 })) {
    records.push({ object: { kind: 'transfer', id: transfer.id }, amount: transfer.amount, created: transfer.created, jobId: jobOf(transfer.metadata, transfer.transfer_group) });
  }
  for await (const transaction of client.balanceTransactions.list({ type: 'transfer_refund', created, limit: 100, expand: ['data.source.transfer'] })) {
    const reversal = transaction.source as Stripe.TransferReversal;
    const transfer = reversal.transfer as Stripe.Transfer;
    records.push({ object: { kind: 'transfer_reversal', id: reversal.id }, amount: reversal.amount, created: reversal.created, jobId: jobOf(transfer.metadata, transfer.transfer_group) });
  }
  // A chargeback moves the platform's balance by `adjustment` transactions whose source is the dispute: the bank's withdrawal, and its reinstatement when won.
  for await (const transaction of client.balanceTransactions.list({ type: 'adjustment', created, limit: 100, expand: ['data.source'] })) {
    const dispute = transaction.source as Stripe.Dispute | null;
    if (dispute?.object !== 'dispute') continue;
    const intent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);
    records.push({ object: { kind: 'dispute_funds', id: transaction.id }, amount: Math.abs(transaction.amount), created: transaction.created, jobId: intent ? await jobOfIntent(intent) : null });
  }
  return records;
}

/**
 * The payouts of the connected accounts the window touched (their transfers, or their payouts in
 * the ledger): Stripe lists payouts per account only. A payout of an account the window did not
 * otherwise touch is found by its webhook (which takes it in) rather than here.
 */
async function payoutRecords(client: Stripe, fromSeconds: number, accounts: ReadonlyMap<string, string>): Promise<StripeRecord[]> {
  const records: StripeRecord[] = [];
  for (const [account, workerId] of accounts) {
    for await (const payout of client.payouts.list({ created: { gte: fromSeconds }, limit: 100 }, { stripeAccount: account })) {
      if (payout.status === 'canceled') continue;
      records.push({ object: { kind: 'payout', id: payout.id }, amount: payout.amount, created: payout.created, jobId: null, workerId });
    }
  }
  return records;
}

/** Every movement written from `fromIso` on, over the ledger log's shards (GSI1, by time). */
async function movementsSince(fromIso: string): Promise<LedgerMovement[]> {
  return queryEveryShard<LedgerMovement>(keys.ledgerLog().partitions, {
    IndexName: 'GSI1',
    KeyConditionExpression: '#at >= :from',
    ExpressionAttributeNames: { '#at': 'gsi1sk' },
    ExpressionAttributeValues: { ':from': fromIso },
  });
}

/** The movements that name a Stripe object, summed per object. */
function ledgerRecords(movements: readonly LedgerMovement[]): Map<string, LedgerRecord> {
  const records = new Map<string, LedgerRecord>();
  for (const movement of movements) {
    if (!movement.stripe) continue;
    const known = records.get(movement.stripe.id);
    records.set(movement.stripe.id, {
      ref: movement.stripe,
      amount: (known?.amount ?? 0) + movement.amount,
      at: known && known.at > movement.at ? known.at : movement.at,
      scope: movement.scope,
    });
  }
  return records;
}

/** The money a Stripe object the ledger names moved, looked up by its id (a payout as its worker's account): null when Stripe has no such object. */
async function stripeAmountOf(client: Stripe, ref: StripeObjectRef, scope: string): Promise<number | null> {
  try {
    switch (ref.kind) {
      case 'payment_intent': {
        const intent = await client.paymentIntents.retrieve(ref.id);
        return intent.status === 'succeeded' ? intent.amount_received : 0;
      }
      case 'refund': {
        const refund = await client.refunds.retrieve(ref.id);
        return refundMoved(refund) ? refund.amount : 0;
      }
      case 'transfer':
        return (await client.transfers.retrieve(ref.id)).amount;
      case 'transfer_reversal': {
        // Retrieving a reversal needs its transfer's id; its balance transaction is found by the reversal's own.
        const { data } = await client.balanceTransactions.list({ source: ref.id, limit: 1 });
        return data[0] ? data[0].amount : null;
      }
      case 'dispute_funds':
        return Math.abs((await client.balanceTransactions.retrieve(ref.id)).amount);
      case 'payout': {
        const account = (await getProfile(workerOfScope(scope) ?? ''))?.stripeAccountId;
        // A worker who deleted their account no longer names it: their payout cannot be looked up.
        if (!account) return null;
        const payout = await client.payouts.retrieve(ref.id, {}, { stripeAccount: account });
        return payout.status === 'canceled' ? 0 : payout.amount;
      }
    }
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function readCheckpoint(): Promise<ReconciliationCheckpoint | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.reconciliationCheckpoint(), ConsistentRead: true }));
  return Item as ReconciliationCheckpoint | undefined;
}

/**
 * Compares Stripe with the ledger from the checkpoint (or `since`) less the margin, answers
 * every difference and stores the checkpoint. The checkpoint does not move past the earliest
 * difference: a difference is found again by every run until it is resolved (or a run is asked
 * to start after it, `since`), so its alarm stays on.
 */
export async function reconcile(input: ReconciliationInput = {}, now = new Date()): Promise<ReconciliationResult> {
  const client = await stripe();
  const checkpoint = input.since === undefined ? await readCheckpoint() : undefined;
  const fromSeconds = input.since !== undefined ? secondsOfIso(input.since) : checkpoint ? secondsOfIso(checkpoint.checkedThrough) - RECONCILIATION_MARGIN_SECONDS : 0;
  const graceSeconds = input.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const settledBefore = nowSeconds - graceSeconds;

  const knownIntents = new Map<string, string | null>();
  const jobOfIntent = async (intentId: string): Promise<string | null> => {
    if (!knownIntents.has(intentId)) {
      const intent = await client.paymentIntents.retrieve(intentId);
      knownIntents.set(intentId, jobOf(intent.metadata, intent.transfer_group));
    }
    return knownIntents.get(intentId) ?? null;
  };
  // The ledger is read from a margin earlier still: a movement may be written before the object's listing time (a refund's reserved movement) and must still match.
  const [platformSide, movements] = await Promise.all([
    stripeRecords(client, fromSeconds, jobOfIntent, knownIntents),
    movementsSince(isoOfSeconds(Math.max(0, fromSeconds - RECONCILIATION_MARGIN_SECONDS))),
  ]);
  const stripeSide = [...platformSide, ...(await payoutRecords(client, fromSeconds, await accountsTouched(client, fromSeconds, movements)))];
  const ledger = ledgerRecords(movements);

  const differences: ReconciliationDifference[] = [];
  const seenAtStripe = new Set<string>();
  for (const record of stripeSide) {
    seenAtStripe.add(record.object.id);
    const known = ledger.get(record.object.id);
    if (known?.amount === record.amount) continue;
    // Too young to tell: its movement may be on its way; the next run looks again.
    if (record.created > settledBefore) continue;
    differences.push({
      kind: known ? 'amount_differs' : 'unknown_to_ledger',
      object: record.object,
      jobId: record.jobId ?? (known ? jobOfScope(known.scope) : null),
      ...(record.workerId ? { workerId: record.workerId } : {}),
      stripeAmount: record.amount,
      ...(known ? { ledgerAmount: known.amount } : {}),
      at: isoOfSeconds(record.created),
    });
  }
  for (const record of ledger.values()) {
    // Movements before the window only answer for Stripe objects in it; each was checked against Stripe by an earlier run.
    if (seenAtStripe.has(record.ref.id) || secondsOfIso(record.at) < fromSeconds || secondsOfIso(record.at) > settledBefore) continue;
    const stripeAmount = await stripeAmountOf(client, record.ref, record.scope);
    if (stripeAmount === record.amount) continue;
    const workerId = workerOfScope(record.scope);
    differences.push({
      kind: stripeAmount === null ? 'unknown_to_stripe' : 'amount_differs',
      object: record.ref,
      jobId: jobOfScope(record.scope),
      ...(workerId ? { workerId } : {}),
      ...(stripeAmount === null ? {} : { stripeAmount }),
      ledgerAmount: record.amount,
      at: record.at,
    });
  }
  // A decision pending past its time: its money is on its way nowhere (the retry schedule and its alarm are on it too).
  for (const decision of await pendingDecisionsBefore(isoOfSeconds(nowSeconds - Math.max(graceSeconds, OVERDUE_AFTER_SECONDS)))) {
    differences.push({ kind: 'pending_decision', object: { kind: 'decision', id: decision.id }, jobId: decision.jobId ?? null, ledgerAmount: decision.amount, at: decision.decidedAt });
  }
  differences.sort((a, b) => a.at.localeCompare(b.at) || a.object.id.localeCompare(b.object.id));
  const losses = movements
    .filter((movement) => (movement.kind === 'platform_loss' || movement.kind === 'unrecovered') && secondsOfIso(movement.at) >= fromSeconds)
    .map((movement): ReconciliationLoss => ({ jobId: jobOfScope(movement.scope) ?? movement.scope, amount: movement.amount, kind: movement.kind as ReconciliationLoss['kind'], movementId: movement.movementId, at: movement.at }));

  // A pending decision does not hold the checkpoint back: the next run finds it again as long as it is pending.
  const earliestDifference = Math.min(...differences.filter((difference) => difference.kind !== 'pending_decision').map((difference) => secondsOfIso(difference.at)), Infinity);
  const result: ReconciliationResult = {
    from: isoOfSeconds(fromSeconds),
    checkedThrough: isoOfSeconds(Math.max(fromSeconds, Math.min(settledBefore, earliestDifference))),
    ranAt: now.toISOString(),
    stripeObjects: stripeSide.length,
    movements: movements.length,
    differences,
    losses,
  };
  const stored: ReconciliationCheckpoint & Record<string, unknown> = {
    ...keys.reconciliationCheckpoint(),
    type: 'reconciliationCheckpoint',
    ...result,
    differenceCount: differences.length,
    differences: differences.slice(0, STORED_DIFFERENCES),
    losses: losses.slice(0, STORED_DIFFERENCES),
  };
  await db.send(new PutCommand({ TableName: tableName(), Item: stored }));
  return result;
}

const KIND_NAMES: Record<ReconciledObjectKind, string> = {
  payment_intent: 'card payment',
  charge: 'charge',
  refund: 'refund',
  transfer: 'transfer',
  transfer_reversal: 'transfer reversal',
  payout: 'payout',
  dispute_funds: 'chargeback',
  decision: 'money decision',
};

/** One difference as a line for people: the job (or the worker), the object and the amounts. */
export function describeDifference(difference: ReconciliationDifference): string {
  const subject = difference.jobId ? `job ${difference.jobId}` : difference.workerId ? `worker ${difference.workerId}` : 'no job';
  const what = `${KIND_NAMES[difference.object.kind]} ${difference.object.id}`;
  const amount = (cents: number | undefined) => formatCents(cents ?? 0);
  switch (difference.kind) {
    case 'unknown_to_ledger':
      return `${subject}: ${amount(difference.stripeAmount)} — Stripe's ${what} is not in the ledger`;
    case 'unknown_to_stripe':
      return `${subject}: ${amount(difference.ledgerAmount)} — the ledger's ${what} is not at Stripe`;
    case 'amount_differs':
      return `${subject}: ${amount(difference.stripeAmount)} at Stripe, ${amount(difference.ledgerAmount)} in the ledger — ${what}`;
    case 'pending_decision':
      return `${subject}: ${amount(difference.ledgerAmount)} — ${what} ${difference.object.id} still pending since ${difference.at}`;
  }
}

/** One loss as a line for people. */
export function describeLoss(loss: ReconciliationLoss): string {
  const why = loss.kind === 'unrecovered' ? "a reversal the worker's balance could not cover (their debt)" : 'money Stripe moved after the job’s escrow was empty';
  return `job ${loss.jobId}: ${formatCents(loss.amount)} lost — ${why} (${loss.movementId})`;
}

/**
 * The connected accounts whose payouts are compared: those the window's transfers went to, and
 * those the window's ledger records a payout of. Each with its worker.
 */
async function accountsTouched(client: Stripe, fromSeconds: number, movements: readonly LedgerMovement[]): Promise<Map<string, string>> {
  const accounts = new Map<string, string>();
  const workers = new Set(movements.filter((movement) => movement.kind === 'payout' && workerOfScope(movement.scope)).map((movement) => workerOfScope(movement.scope)!));
  for (const workerId of workers) {
    const account = (await getProfile(workerId))?.stripeAccountId;
    if (account) accounts.set(account, workerId);
  }
  for await (const transfer of client.transfers.list({ created: { gte: fromSeconds }, limit: 100 })) {
    const account = typeof transfer.destination === 'string' ? transfer.destination : transfer.destination?.id;
    if (!account || accounts.has(account)) continue;
    const workerId = await userOfAccount(account);
    if (workerId) accounts.set(account, workerId);
  }
  return accounts;
}
