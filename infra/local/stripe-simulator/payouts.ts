import type { ApiCall } from './operation.js';
import { invalidRequest, unsupported } from './errors.js';
import { findAccount } from './accounts.js';
import { availableBalance, positiveAmount, recordBalanceTransaction, takesInstantPayouts, usdOnly } from './balance.js';
import { newId, nowSeconds, type PayoutObject } from './objects.js';

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
    livemode: false,
    metadata,
    method,
    source_type: 'card',
    statement_descriptor: null,
    status: 'paid',
    type: 'card',
  };
  op.store.data.payouts[id] = payout;
  op.emit('payout.created', payout);
  return payout;
}
