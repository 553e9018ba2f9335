import type Stripe from 'stripe';
import type { ApiCall } from './operation.js';
import { ParameterError, unsupported } from './errors.js';
import { findAccount } from './accounts.js';
import { listPage } from './lists.js';
import { newId, nowSeconds, type AccountObject, type AdjustmentCategory, type BalanceTransactionObject, type BalanceTransactionType, type ListObject, type ReportingCategory } from './objects.js';
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
/** The only fee on an adjustment is the one a dispute takes, which Stripe details as this. */
const DISPUTE_FEE_DESCRIPTION = 'Dispute fee';

/** Money moving: an adjustment (Stripe's type for a dispute's withdrawal and reinstatement) says which of the two it is. */
type Movement = { amount: number; fee?: number; source: string; description: string | null; account?: string } & (
  | { type: Exclude<BalanceTransactionType, 'adjustment'> }
  | { type: 'adjustment'; category: AdjustmentCategory }
);

const reportingCategory = (movement: Movement): ReportingCategory => {
  if (movement.type === 'adjustment') return movement.category;
  return movement.type === 'transfer_refund' ? 'transfer_reversal' : movement.type;
};

/**
 * Records money moving through the platform balance. Test mode makes everything available at
 * once (no payout schedule), so the balance is simply the sum of every transaction's net.
 */
export function recordBalanceTransaction(store: SimulatorStore, movement: Movement): BalanceTransactionObject {
  const fee = movement.fee ?? 0;
  const created = nowSeconds();
  const feeDescription = movement.type === 'adjustment' ? DISPUTE_FEE_DESCRIPTION : FEE_DESCRIPTION;
  const transaction: BalanceTransactionObject = {
    id: newId('txn'),
    object: 'balance_transaction',
    amount: movement.amount,
    available_on: created,
    created,
    currency: CURRENCY,
    description: movement.description,
    fee,
    fee_details: fee ? [{ amount: fee, application: null, currency: CURRENCY, description: feeDescription, type: 'stripe_fee' }] : [],
    net: movement.amount - fee,
    reporting_category: reportingCategory(movement),
    source: movement.source,
    status: 'available',
    type: movement.type,
  };
  store.data.balanceTransactions[transaction.id] = transaction;
  if (movement.account) store.data.ownerAccounts[transaction.id] = movement.account;
  return transaction;
}

/**
 * The available balance of the platform or, given one, of a connected account. A connected
 * account's balance is what the platform transferred to it plus its own transactions (payouts
 * and their fees); the platform's is the net of its own transactions.
 */
export function availableBalance(store: SimulatorStore, account?: string): number {
  const own = Object.values(store.data.balanceTransactions)
    .filter((transaction) => store.data.ownerAccounts[transaction.id] === account)
    .reduce((sum, transaction) => sum + transaction.net, 0);
  if (!account) return own;
  return own + Object.values(store.data.transfers).reduce((sum, transfer) => sum + (transfer.destination === account ? transfer.amount - transfer.amount_reversed : 0), 0);
}

/** Whether the account's payouts card takes Instant Payouts (Stripe reports it on the external account). */
export function takesInstantPayouts(account: AccountObject): boolean {
  return account.external_accounts.data.some((card) => card.available_payout_methods.includes('instant'));
}

/**
 * GET /v1/balance, of the platform or (Stripe-Account header) of a connected account. Test mode
 * makes funds available at once; `instant_available`, what an Instant Payout may take, is
 * reported for accounts whose card takes Instant Payouts, as Stripe does.
 */
export function retrieveBalance(call: ApiCall): Pick<Stripe.Balance, 'object' | 'available' | 'instant_available' | 'pending' | 'livemode'> {
  const account = call.account && findAccount(call.op.store, call.account);
  const amount = availableBalance(call.op.store, account ? account.id : undefined);
  return {
    object: 'balance',
    available: [{ amount, currency: CURRENCY, source_types: { card: amount } }],
    ...(account && takesInstantPayouts(account) ? { instant_available: [{ amount, currency: CURRENCY, source_types: { card: amount } }] } : {}),
    pending: [{ amount: 0, currency: CURRENCY, source_types: { card: 0 } }],
    livemode: false,
  };
}

/**
 * GET /v1/balance_transactions, of the platform or (Stripe-Account header) of a connected
 * account: newest first, filtered by type, source and created, paged like Stripe's lists.
 */
export function listBalanceTransactions(call: ApiCall): ListObject<BalanceTransactionObject> {
  const { store } = call.op;
  const type = call.params.string('type');
  const source = call.params.string('source');
  return listPage(
    call,
    Object.values(store.data.balanceTransactions),
    '/v1/balance_transactions',
    (transaction) => store.data.ownerAccounts[transaction.id] === call.account && (type === undefined || transaction.type === type) && (source === undefined || transaction.source === source),
  );
}
