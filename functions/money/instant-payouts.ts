import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { cashOutOf, type InstantPayout, type InstantPayoutAvailability } from '../../shared/payouts.js';
import { db, tableName } from '../lib/db.js';
import { conflict, forbidden, HttpError } from '../lib/errors.js';
import { isStripeError } from '../lib/stripe-errors.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { movementPut, transactLedger, workerScope } from './ledger.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { keys } from '../table.js';
import { decisionPut, newDecision } from './decision.js';
import { MoneyRefused, carryOut } from './executor.js';
import { payoutMovementIds, type PayoutContext } from './payout-plan.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { isPaymentAccountComplete, userOfAccount } from './payment-accounts.js';
import { getProfile, type ProfileItem } from '../people/profiles.js';

/**
 * The payout as stored (keys.instantPayout): claimed `pending` before Stripe is called, with
 * Stripe's payout id and fee once Stripe made it, `paid` or `failed` when Stripe's webhook says
 * how it ended (in either order with the request's own write).
 */
interface InstantPayoutItem extends InstantPayout {
  workerId: string;
  payoutId?: string;
  /** The executor's decision that makes the payout (claims before Wave 5 have none). */
  decisionId?: string;
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
 * POST /me/payouts/instant: an Instant Payout of the worker's connected account to its debit
 * card (`method: 'instant'`); Stripe checks the card and that amount and fee fit the
 * instant-available balance. Exactly once per request key: the claim (keys.instantPayout) and the
 * executor's decision are written together, and the decision's payout is made once by its key.
 * The payout stays `pending` until Stripe's payout.paid or payout.failed (settleInstantPayout).
 */
export async function requestInstantPayout(userId: string, amount: number, requestKey: string): Promise<InstantPayout> {
  const worker = await payoutWorker(userId);
  const claimed = await getClaim(userId, requestKey);
  if (claimed && claimed.amount !== amount) throw conflict(MSG.payouts.otherAmountInProgress);
  let decisionId = claimed?.decisionId;
  if (!claimed) {
    const decision = newDecision<PayoutContext>('payout', userId, {
      scope: workerScope(userId),
      label: `Instant payout to ${worker.name}`,
      amount,
      calls: [{ name: 'payout', move: { kind: 'payout', account: worker.stripeAccountId, amount, workerId: userId, requestKey } }],
      context: { workerId: userId, requestKey, amount },
    });
    try {
      await retryLostRaces(() =>
        transactWrite([
          decisionPut(decision),
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.instantPayout(userId, requestKey), type: 'instantPayout', workerId: userId, requestKey, amount, fee: 0, status: 'pending', decisionId: decision.id, createdAt: decision.decidedAt },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]),
      );
      decisionId = decision.id;
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      // The same key at the same moment (a double click): the claim that won goes on.
      const winner = await getClaim(userId, requestKey);
      if (winner?.amount !== amount) throw conflict(MSG.payouts.otherAmountInProgress);
      decisionId = winner.decisionId;
    }
  }
  if (decisionId) {
    try {
      await carryOut(decisionId);
    } catch (error) {
      if (error instanceof MoneyRefused) throw error.answer;
      payoutError(error);
    }
  }
  return toInstantPayout((await getClaim(userId, requestKey))!);
}

async function getClaim(workerId: string, requestKey: string): Promise<InstantPayoutItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.instantPayout(workerId, requestKey), ConsistentRead: true }));
  return Item as InstantPayoutItem | undefined;
}

/**
 * Stripe's payout.paid or payout.failed of a connected account's payout. A worker's Instant
 * Payout (its metadata names the decision): its decision is carried out first, should the
 * webhook come before the request's own settlement; then the record turns `paid`, or `failed`
 * with Stripe's reason, the payout and its fee back in the ledger and the worker's notification,
 * in one transaction. Each is conditional on the status it leaves (a payout reported paid may
 * still fail later, as Stripe warns; a failure is final), so a redelivered or late event changes
 * nothing. A payout not made by the product (the account's automatic standard payouts) is taken
 * into the ledger as it is: the worker's balance gone to their bank, or back when it failed.
 */
export async function settleInstantPayout(payout: Stripe.Payout, accountId: string | undefined): Promise<'paid' | 'failed' | 'unchanged' | 'taken in'> {
  if (payout.status !== 'paid' && payout.status !== 'failed') return 'unchanged';
  const { workerId, requestKey, decision: decisionId } = payout.metadata ?? {};
  if (!workerId || !requestKey || !decisionId) return takeInPayout(payout, accountId);
  // Its settlement first (the payout made, so only a table write is left): the outcome's writes follow it.
  await carryOut(decisionId);
  // The fee the payout's settlement recorded, which a failure returns with it (the payout_failure balance transaction's).
  const fee = (await getClaim(workerId, requestKey))?.fee ?? 0;
  // The request's own write may hold the record at the same moment: a lost race runs again.
  return retryLostRaces(async () => {
    try {
      await transactLedger(payout.status === 'paid' ? [payoutOutcome(payout, workerId, requestKey)] : payoutFailure(payout, workerId, requestKey, fee, payoutMovementIds({ id: decisionId })));
      return payout.status === 'paid' ? 'paid' : 'failed';
    } catch (error) {
      if (error instanceof TransactionRefused) return 'unchanged';
      throw error;
    }
  });
}

/**
 * A payout Stripe made on its own schedule (a standard payout of the worker's balance): into the
 * ledger by its id — the balance to the bank when paid, back when it failed — once each.
 */
async function takeInPayout(payout: Stripe.Payout, accountId: string | undefined): Promise<'taken in' | 'unchanged'> {
  const workerId = accountId ? await userOfAccount(accountId) : undefined;
  if (!workerId) return 'unchanged';
  const scope = workerScope(workerId);
  const paidOut = movementPut({ scope, movementId: `payout:${payout.id}`, kind: 'payout', from: ledgerAccount.worker(workerId), to: ledgerAccount.bank(workerId), amount: payout.amount, stripe: { kind: 'payout', id: payout.id }, settled: true });
  const returned = movementPut({ scope, movementId: `payout:${payout.id}:return`, kind: 'payout_return', from: ledgerAccount.bank(workerId), to: ledgerAccount.worker(workerId), amount: payout.amount, settled: true });
  try {
    await transactLedger(paidOut);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
  }
  if (payout.status === 'failed') {
    try {
      await transactLedger(returned);
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
    }
  }
  return 'taken in';
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

/** A failed payout: the record, the payout and its fee back in the worker's balance, and the worker's notification, together. */
function payoutFailure(payout: Stripe.Payout, workerId: string, requestKey: string, fee: number, ids: ReturnType<typeof payoutMovementIds>): TransactItem[] {
  const failureMessage = payout.failure_message ?? MSG.payouts.failedNoReason;
  const notice = notificationItem({
    userId: workerId,
    jobId: null,
    type: 'payout_failed',
    title: MSG.payouts.failedTitle,
    message: MSG.payouts.failedMessage(formatCents(payout.amount), failureMessage),
    metadata: { payoutId: payout.id, requestKey },
  });
  // The money comes back to the worker's balance, with Stripe's fee; the movements' keys make a repeated failure one return.
  const scope = workerScope(workerId);
  const returned = [
    ...movementPut({ scope, movementId: ids.returned, kind: 'payout_return', from: ledgerAccount.bank(workerId), to: ledgerAccount.worker(workerId), amount: payout.amount, settled: true }),
    ...movementPut({ scope, movementId: ids.feeReturned, kind: 'payout_fee_return', from: ledgerAccount.stripeFees(), to: ledgerAccount.worker(workerId), amount: fee, settled: true }),
  ];
  return [payoutOutcome(payout, workerId, requestKey, failureMessage), ...notificationWrites(notice), ...returned];
}
