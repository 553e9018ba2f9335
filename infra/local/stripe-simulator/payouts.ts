import type { ApiCall, Operation } from './operation.js';
import { invalidRequest, unsupported } from './errors.js';
import { findAccount, payoutCardOf } from './accounts.js';
import { availableBalance, positiveAmount, recordBalanceTransaction, takesInstantPayouts, usdOnly } from './balance.js';
import { listPage } from './lists.js';
import { newId, nowSeconds, type ListObject, type PayoutObject } from './objects.js';

/** Stripe's US Instant Payout pricing: 1.5% of the payout, at least $0.50. */
export const instantPayoutFee = (amount: number) => Math.max(50, Math.round(amount * 0.015));

/**
 * POST /v1/payouts with the Stripe-Account header: an Instant Payout of a connected account's
 * balance to its debit card. The fee is charged on the payout's balance transaction (net =
 * amount + fee leaves the balance), so amount and fee together must fit the instant-available
 * balance. Standard payouts are left to the account's automatic schedule, as the product does.
 */
export function createPayout(call: ApiCall): PayoutObject {
  const { params, op } = call;
  if (!call.account) throw unsupported('Stripe-Account', 'payouts of the platform account (only connected accounts\' Instant Payouts)');
  const account = findAccount(op.store, call.account);
  const amount = positiveAmount(params.requiredInteger('amount'));
  const currency = usdOnly(params.requiredString('currency'));
  const method = params.oneOf('method', ['instant', 'standard']) ?? 'standard';
  if (method !== 'instant') throw unsupported('method', 'standard payouts on request (they run on the account\'s automatic schedule)');
  if (params.string('destination') !== undefined) throw unsupported('destination', 'choosing the payout destination (the default card is used)');
  const description = params.string('description') ?? null;
  const metadata = params.metadata();

  const card = account.external_accounts.data[0];
  if (!account.payouts_enabled || !card) {
    throw invalidRequest('Payouts are not enabled for this account.', { code: 'payouts_not_allowed' });
  }
  if (!takesInstantPayouts(account)) {
    throw invalidRequest('The debit card provided as an external account does not support instant payouts. Provide another debit card or use a bank account instead.', {
      code: 'instant_payouts_unsupported',
      param: 'method',
    });
  }
  const fee = instantPayoutFee(amount);
  if (amount + fee > availableBalance(op.store, account.id)) {
    throw invalidRequest('You have insufficient funds in your Stripe account for this transfer. Your card balance is too low. You can use the /v1/balance endpoint to view your Stripe balance (for more details, see stripe.com/docs/api#balance).', {
      code: 'balance_insufficient',
      param: 'amount',
    });
  }

  const id = newId('po');
  op.store.data.ownerAccounts[id] = account.id;
  const created = nowSeconds();
  const payout: PayoutObject = {
    id,
    object: 'payout',
    amount,
    arrival_date: created,
    automatic: false,
    balance_transaction: recordBalanceTransaction(op.store, { type: 'payout', amount: -amount, fee, source: id, description: 'STRIPE PAYOUT', account: account.id }).id,
    created,
    currency,
    description,
    destination: card.id,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata,
    method,
    source_type: 'card',
    statement_descriptor: null,
    status: 'pending',
    type: 'card',
  };
  op.store.data.payouts[id] = payout;
  op.emit('payout.created', payout);
  const answer = structuredClone(payout);
  arrive(op, payout, fee, payoutCardOf(card)?.payoutFailure);
  return answer;
}

/**
 * How the payout ends, right away: Stripe sends an Instant Payout's payout.paid within about 30
 * minutes, compressed here to the moment after the answer (the events go out in order, created
 * first). A card whose payouts fail makes it `failed` with Stripe's code and reason, and a
 * `payout_failure` balance transaction returns the payout and its fee to the balance.
 */
function arrive(op: Operation, payout: PayoutObject, fee: number, failure: { code: string; message: string } | undefined): void {
  if (!failure) {
    payout.status = 'paid';
    op.emit('payout.paid', payout);
    return;
  }
  const account = op.store.data.ownerAccounts[payout.id];
  payout.status = 'failed';
  payout.failure_code = failure.code;
  payout.failure_message = failure.message;
  payout.failure_balance_transaction = recordBalanceTransaction(op.store, { type: 'payout_failure', amount: payout.amount, fee: -fee, source: payout.id, description: 'STRIPE PAYOUT FAILURE', account }).id;
  op.emit('payout.failed', payout);
}

/** GET /v1/payouts with the Stripe-Account header: that connected account's payouts, newest first, filtered by created and paged like Stripe's lists. */
export function listPayouts(call: ApiCall): ListObject<PayoutObject> {
  if (!call.account) throw unsupported('Stripe-Account', "listing the platform's own payouts (only connected accounts' Instant Payouts exist)");
  const owners = call.op.store.data.ownerAccounts;
  return listPage(call, Object.values(call.op.store.data.payouts), '/v1/payouts', (payout) => owners[payout.id] === call.account);
}
