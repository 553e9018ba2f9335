import type { ApiCall } from './operation.js';
import { invalidRequest, noSuchObject } from './errors.js';
import { findAccount } from './accounts.js';
import { availableBalance, dollars, positiveAmount, recordBalanceTransaction, usdOnly } from './balance.js';
import { newId, nowSeconds, type ChargeObject, type ListObject, type TransferObject, type TransferReversalObject } from './objects.js';
import { listPage } from './lists.js';
import { succeededCharge } from './payment-intents.js';

/** How many of its newest reversals a transfer embeds, as Stripe's `reversals` list does. */
const EMBEDDED_REVERSALS = 10;

/** What is left of a charge to fund transfers from: not refunded, not already transferred. */
function untransferredAmount(call: ApiCall, charge: ChargeObject): number {
  const transferred = Object.values(call.op.store.data.transfers)
    .filter((transfer) => transfer.source_transaction === charge.id)
    .reduce((sum, transfer) => sum + transfer.amount, 0);
  return charge.amount - charge.amount_refunded - transferred;
}

/**
 * POST /v1/transfers: moves money from the platform balance to a connected account. With
 * `source_transaction` the transfer is funded by that charge (up to what is left of it); otherwise
 * it needs that much available balance.
 */
export function createTransfer(call: ApiCall): TransferObject {
  const { params, op } = call;
  const amount = positiveAmount(params.requiredInteger('amount'));
  const currency = usdOnly(params.requiredString('currency'));
  const destinationId = params.requiredString('destination');
  const sourceId = params.string('source_transaction');
  const description = params.string('description') ?? null;
  const metadata = params.metadata();
  const transferGroup = params.string('transfer_group') ?? null;

  const destination = findAccount(op.store, destinationId, 'destination');
  if (destination.capabilities.transfers !== 'active') {
    throw invalidRequest('Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments', {
      code: 'insufficient_capabilities_for_transfer',
      param: 'destination',
    });
  }
  if (sourceId !== undefined) {
    const source = succeededCharge(call, sourceId, 'source_transaction');
    const left = untransferredAmount(call, source);
    if (amount > left) {
      throw invalidRequest(`Transfer amount (${dollars(amount)}) exceeds what remains of source transaction ${sourceId} (${dollars(left)}).`, { param: 'amount' });
    }
  } else if (amount > availableBalance(op.store)) {
    throw invalidRequest('You have insufficient available funds in your Stripe account.', { code: 'balance_insufficient' });
  }

  const id = newId('tr');
  const transfer: TransferObject = {
    id,
    object: 'transfer',
    amount,
    amount_reversed: 0,
    balance_transaction: recordBalanceTransaction(op.store, { type: 'transfer', amount: -amount, source: id, description }).id,
    created: nowSeconds(),
    currency,
    description,
    destination: destination.id,
    destination_payment: newId('py'),
    livemode: false,
    metadata,
    reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
    reversed: false,
    source_transaction: sourceId ?? null,
    source_type: 'card',
    transfer_group: transferGroup,
  };
  op.store.data.transfers[id] = transfer;
  op.emit('transfer.created', transfer);
  return transfer;
}

/** GET /v1/transfers: newest first, filtered by transfer_group, destination and created, paged like Stripe's lists. */
export function listTransfers(call: ApiCall): ListObject<TransferObject> {
  const group = call.params.string('transfer_group');
  const destination = call.params.string('destination');
  return listPage(call, Object.values(call.op.store.data.transfers), '/v1/transfers', (transfer) => (group === undefined || transfer.transfer_group === group) && (destination === undefined || transfer.destination === destination));
}

function platformTransfer(call: ApiCall): TransferObject {
  const transfer = call.op.store.data.transfers[call.id];
  if (!transfer) throw noSuchObject('transfer', call.id);
  return transfer;
}

/**
 * POST /v1/transfers/:id/reversals: takes money back from the connected account to the
 * platform balance, the rest of the transfer unless an amount is given. The account must still
 * hold it (a worker who cashed out cannot be reversed).
 */
export function createTransferReversal(call: ApiCall): TransferReversalObject {
  const { params, op } = call;
  const transfer = platformTransfer(call);
  const requested = params.integer('amount');
  const metadata = params.metadata();
  const reversible = transfer.amount - transfer.amount_reversed;
  if (reversible === 0) throw invalidRequest(`Transfer ${transfer.id} has already been fully reversed.`);
  const amount = requested === undefined ? reversible : positiveAmount(requested);
  if (amount > reversible) {
    throw invalidRequest(`Reversal amount (${dollars(amount)}) is greater than the amount of the transfer not yet reversed (${dollars(reversible)}).`, { param: 'amount' });
  }
  if (amount > availableBalance(op.store, transfer.destination)) {
    throw invalidRequest(`The destination account ${transfer.destination} has insufficient funds to cover the reversal.`, { code: 'balance_insufficient' });
  }

  const id = newId('trr');
  const reversal: TransferReversalObject = {
    id,
    object: 'transfer_reversal',
    amount,
    balance_transaction: recordBalanceTransaction(op.store, { type: 'transfer_refund', amount, source: id, description: null }).id,
    created: nowSeconds(),
    currency: transfer.currency,
    destination_payment_refund: null,
    metadata,
    source_refund: null,
    transfer: transfer.id,
  };
  op.store.data.transferReversals[id] = reversal;
  const before = structuredClone(transfer);
  const reversals = [reversal, ...transfer.reversals.data];
  transfer.amount_reversed += amount;
  transfer.reversed = transfer.amount_reversed === transfer.amount;
  transfer.reversals = { ...transfer.reversals, data: reversals.slice(0, EMBEDDED_REVERSALS), has_more: reversals.length > EMBEDDED_REVERSALS };
  op.emit('transfer.reversed', transfer, before);
  return reversal;
}

/** GET /v1/transfers/:id/reversals: the transfer's reversals, newest first, paged like Stripe's lists. */
export function listTransferReversals(call: ApiCall): ListObject<TransferReversalObject> {
  const transfer = platformTransfer(call);
  return listPage(call, Object.values(call.op.store.data.transferReversals), `/v1/transfers/${transfer.id}/reversals`, (reversal) => reversal.transfer === transfer.id);
}
