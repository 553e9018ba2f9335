import type Stripe from 'stripe';
import type { ApiCall } from './operation.js';
import { ParameterError, unsupported } from './errors.js';
import { newId, nowSeconds, type BalanceTransactionObject, type BalanceTransactionType } from './objects.js';
import type { SimulatorStore } from './store.js';

/** The only currency modelled: fees and the balance below are US ones. */
const CURRENCY = 'usd';

export function usdOnly(currency: string): string {
  if (currency.toLowerCase() !== CURRENCY) throw unsupported('currency', `currencies other than usd (got '${currency}')`);
  return CURRENCY;
}

/** A positive amount in cents, as every money-moving parameter must be. */
export function positiveAmount(amount: number, param = 'amount'): number {
  if (amount <= 0) throw new ParameterError('This value must be greater than or equal to 1.', { code: 'parameter_invalid_integer', param });
  return amount;
}

/** Stripe's standard US card pricing: 2.9% + 30¢ per successful charge. */
export const cardFee = (amount: number) => Math.round(amount * 0.029) + 30;

/** Formats cents the way Stripe's error messages quote amounts: $12.34. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const FEE_DESCRIPTION = 'Stripe processing fees';

/**
 * Records money moving through the platform balance. Test mode makes everything available at
 * once (no payout schedule), so the balance is simply the sum of every transaction's net.
 */
export function recordBalanceTransaction(
  store: SimulatorStore,
  movement: { type: BalanceTransactionType; amount: number; fee?: number; source: string; description: string | null },
): BalanceTransactionObject {
  const fee = movement.fee ?? 0;
  const created = nowSeconds();
  const transaction: BalanceTransactionObject = {
    id: newId('txn'),
    object: 'balance_transaction',
    amount: movement.amount,
    available_on: created,
    created,
    currency: CURRENCY,
    description: movement.description,
    fee,
    fee_details: fee ? [{ amount: fee, application: null, currency: CURRENCY, description: FEE_DESCRIPTION, type: 'stripe_fee' }] : [],
    net: movement.amount - fee,
    reporting_category: movement.type,
    source: movement.source,
    status: 'available',
    type: movement.type,
  };
  store.data.balanceTransactions[transaction.id] = transaction;
  return transaction;
}

export const availableBalance = (store: SimulatorStore) => Object.values(store.data.balanceTransactions).reduce((sum, transaction) => sum + transaction.net, 0);

/** GET /v1/balance */
export function retrieveBalance(call: ApiCall): Pick<Stripe.Balance, 'object' | 'available' | 'pending' | 'livemode'> {
  const amount = availableBalance(call.op.store);
  return {
    object: 'balance',
    available: [{ amount, currency: CURRENCY, source_types: { card: amount } }],
    pending: [{ amount: 0, currency: CURRENCY, source_types: { card: 0 } }],
    livemode: false,
  };
}
