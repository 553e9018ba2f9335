import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { cashOutOf, type InstantPayout, type InstantPayoutAvailability } from '../../shared/payouts.js';
import { db, isConditionFailure, tableName } from '../lib/db.js';
import { conflict, forbidden, HttpError } from '../lib/errors.js';
import { isStripeError } from '../lib/stripe-errors.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces, type TransactItem } from '../lib/transactions.js';
import { movementPut, transactLedger, workerScope } from './ledger.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { keys } from '../table.js';
import { adminActionPut, SYSTEM_ACTOR } from './admin-actions.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { isPaymentAccountComplete } from './payment-accounts.js';
import { getProfile, type ProfileItem } from './profiles.js';

/**
 * The payout as stored (keys.instantPayout): claimed `pending` before Stripe is called, with
 * Stripe's payout id and fee once Stripe made it, `paid` or `failed` when Stripe's webhook says
 * how it ended (in either order with the request's own write).
 */
interface InstantPayoutItem extends InstantPayout {
  workerId: string;
  payoutId?: string;
}

/** What the worker sees of a stored payout. */
const toInstantPayout = ({ requestKey, amount, fee, status, failureMessage, createdAt }: InstantPayoutItem): InstantPayout => ({
  requestKey,
  amount,
  fee,
  status,
  ...(failureMessage ? { failureMessage } : {}),
  createdAt,
});

/** A worker with a complete payment account: only they may cash out, from their own account. */
async function payoutWorker(userId: string): Promise<ProfileItem & { stripeAccountId: string }> {
  const profile = await getProfile(userId);
  if (profile?.role !== 'worker') throw forbidden(MSG.payouts.onlyWorkers);
  if (!isPaymentAccountComplete(profile)) throw conflict(MSG.payouts.accountNeeded);
  return profile as ProfileItem & { stripeAccountId: string };
}

/**
 * Stripe's refusals become the worker's 409s; Stripe being unreachable or failing is a 503 to
 * retry with the same key (the payout's idempotency key makes the retry the same payout).
 */
function payoutError(error: unknown): never {
  if (!isStripeError(error)) throw error;
  if (error.code === 'instant_payouts_unsupported') throw conflict(MSG.payouts.notEligible);
  if (error.code === 'balance_insufficient') throw conflict(MSG.payouts.overBalance);
  if (error.type === 'StripeInvalidRequestError' || error.type === 'StripeCardError') throw error;
  throw new HttpError(503, MSG.payouts.stripeUnavailable, undefined, { 'retry-after': '2' });
}

async function listInstantPayouts(workerId: string): Promise<InstantPayout[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(workerId), ':prefix': keys.instantPayoutPrefix() },
    }),
  );
  return (Items as InstantPayoutItem[]).map(toInstantPayout).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * GET /me/payouts/instant: whether the worker's payout card takes Instant Payouts (Stripe reports
 * it on the account's external account), what Stripe says may be paid out instantly now, and the
 * worker's past cash-outs.
 */
export async function getInstantPayoutAvailability(userId: string): Promise<InstantPayoutAvailability> {
  const worker = await payoutWorker(userId);
  const client = await stripe();
  const [account, balance, payouts] = await Promise.all([
    client.accounts.retrieve(worker.stripeAccountId).catch(payoutError),
    client.balance.retrieve({}, { stripeAccount: worker.stripeAccountId }).catch(payoutError),
    listInstantPayouts(userId),
  ]);
  const card = account.external_accounts?.data.find((external): external is Stripe.Card => external.object === 'card');
  const eligible = Boolean(card?.available_payout_methods?.includes('instant'));
  const instantAvailable = eligible ? (balance.instant_available?.find((entry) => entry.currency === 'usd')?.amount ?? 0) : 0;
  return { eligible, cardLast4: card?.last4 ?? null, instantAvailable, cashOut: cashOutOf(instantAvailable), payouts };
}

/**
 * Claims the request's payout for this amount, by the client's key. The same key and amount
 * goes on (a retry, a double click): every path to Stripe then uses the same idempotency key, so
 * Stripe pays out once. The same key with another amount is a 409.
 */
async function claimPayout(workerId: string, requestKey: string, amount: number): Promise<InstantPayoutItem> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.instantPayout(workerId, requestKey),
        UpdateExpression:
          'SET #type = :type, workerId = :worker, requestKey = :key, amount = :amount, fee = if_not_exists(fee, :zero), #status = if_not_exists(#status, :pending), createdAt = if_not_exists(createdAt, :now)',
        ConditionExpression: 'attribute_not_exists(pk) OR amount = :amount',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':type': 'instantPayout', ':worker': workerId, ':key': requestKey, ':amount': amount, ':zero': 0, ':pending': 'pending', ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as InstantPayoutItem;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw conflict(MSG.payouts.otherAmountInProgress);
  }
}

/**
 * POST /me/payouts/instant: an Instant Payout of the worker's connected account to its debit
 * card, through Stripe's payouts API as that account (`method: 'instant'`); Stripe checks the
 * card and that amount and fee fit the instant-available balance. Exactly once per request key:
 * one claim, one Stripe payout by its idempotency key, and the recording transaction (Stripe's
 * payout id and fee on the record, and the audit entry) happens once. The payout stays
 * `pending` until Stripe's payout.paid or payout.failed (settleInstantPayout).
 */
export async function requestInstantPayout(userId: string, amount: number, requestKey: string): Promise<InstantPayout> {
  const worker = await payoutWorker(userId);
  const claim = await claimPayout(userId, requestKey, amount);
  if (claim.payoutId) return toInstantPayout(claim);
  const payout = await (await stripe()).payouts
    .create(
      { amount, currency: 'usd', method: 'instant', metadata: { workerId: userId, requestKey }, expand: ['balance_transaction'] },
      { stripeAccount: worker.stripeAccountId, idempotencyKey: `instant-payout-${userId}-${requestKey}` },
    )
    .catch(payoutError);
  const transaction = payout.balance_transaction;
  const fee = transaction && typeof transaction === 'object' ? transaction.fee : 0;
  await retryLostRaces(() => recordPayout(userId, requestKey, amount, payout.id, fee));
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.instantPayout(userId, requestKey), ConsistentRead: true }));
  return toInstantPayout(Item as InstantPayoutItem);
}

/**
 * Stripe's payout id and fee on the record, and its audit entry, in one transaction; once. The
 * status is left alone: Stripe's webhook may have told how the payout ended already.
 */
async function recordPayout(userId: string, requestKey: string, amount: number, payoutId: string, fee: number): Promise<void> {
  try {
    await transactLedger([
      {
        Update: {
          TableName: tableName(),
          Key: keys.instantPayout(userId, requestKey),
          UpdateExpression: 'SET fee = :fee, payoutId = :payout',
          ConditionExpression: 'attribute_not_exists(payoutId)',
          ExpressionAttributeValues: { ':fee': fee, ':payout': payoutId },
        },
      },
      // The worker's balance leaves for their card (the worker's own money, outside every job's escrow).
      ...movementPut({ scope: workerScope(userId), movementId: `payout-${requestKey}`, kind: 'payout', from: ledgerAccount.worker(userId), to: ledgerAccount.bank(userId), amount, stripe: { kind: 'payout', id: payoutId } }),
      adminActionPut({
        adminId: SYSTEM_ACTOR,
        actionType: 'instant_payout',
        targetType: 'user',
        targetId: userId,
        details: { payoutId, amount, fee, requestKey },
        reason: 'Instant payout requested by the worker',
      }),
    ]);
  } catch (error) {
    // A concurrent request with the same key recorded it first.
    if (!(error instanceof TransactionRefused)) throw error;
  }
}

/**
 * Stripe's payout.paid or payout.failed of a worker's Instant Payout (its metadata names the
 * worker and the request): the record turns `paid`, or `failed` with Stripe's reason and the
 * worker's notification in the same transaction. Each is conditional on the status it leaves
 * (a payout reported paid may still fail later, as Stripe warns; a failure is final), so a
 * redelivered or late event changes nothing and the worker is told once. Payouts that are not
 * the product's (the account's automatic standard payouts) are left alone.
 */
export async function settleInstantPayout(payout: Stripe.Payout): Promise<'paid' | 'failed' | 'unchanged' | 'not ours'> {
  const { workerId, requestKey } = payout.metadata ?? {};
  if (payout.method !== 'instant' || !workerId || !requestKey || (payout.status !== 'paid' && payout.status !== 'failed')) return 'not ours';
  // The request's own write (recordPayout) may hold the record at the same moment: a lost race runs again.
  return retryLostRaces(async () => {
    try {
      await transactLedger(payout.status === 'paid' ? [payoutOutcome(payout, workerId, requestKey)] : payoutFailure(payout, workerId, requestKey));
      return payout.status === 'paid' ? 'paid' : 'failed';
    } catch (error) {
      if (error instanceof TransactionRefused) return 'unchanged';
      throw error;
    }
  });
}

/** The record's `pending -> paid`, or `-> failed` (from pending or paid) with Stripe's reason. */
function payoutOutcome(payout: Stripe.Payout, workerId: string, requestKey: string, failureMessage?: string): TransactItem {
  const failed = failureMessage !== undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.instantPayout(workerId, requestKey),
      UpdateExpression: failed ? 'SET #status = :to, failureMessage = :reason' : 'SET #status = :to',
      ConditionExpression: failed ? 'amount = :amount AND #status <> :to' : 'amount = :amount AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: failed ? { ':to': 'failed', ':reason': failureMessage, ':amount': payout.amount } : { ':to': 'paid', ':pending': 'pending', ':amount': payout.amount },
    },
  };
}

/** A failed payout: the record and the worker's notification, together. */
function payoutFailure(payout: Stripe.Payout, workerId: string, requestKey: string): TransactItem[] {
  const failureMessage = payout.failure_message ?? MSG.payouts.failedNoReason;
  const notice = notificationItem({
    userId: workerId,
    jobId: null,
    type: 'payout_failed',
    title: MSG.payouts.failedTitle,
    message: MSG.payouts.failedMessage(formatCents(payout.amount), failureMessage),
    metadata: { payoutId: payout.id, requestKey },
  });
  // The money comes back to the worker's balance; the movement's key makes a repeated failure one return.
  const returned = movementPut({ scope: workerScope(workerId), movementId: `payout-${requestKey}-failed`, kind: 'payout_return', from: ledgerAccount.bank(workerId), to: ledgerAccount.worker(workerId), amount: payout.amount, settled: true });
  return [payoutOutcome(payout, workerId, requestKey, failureMessage), ...notificationWrites(notice), ...returned];
}
