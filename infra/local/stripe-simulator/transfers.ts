import type { ApiCall } from './operation.js';
import { invalidRequest, ParameterError } from './errors.js';
import { findAccount } from './accounts.js';
import { availableBalance, dollars, positiveAmount, recordBalanceTransaction, usdOnly } from './balance.js';
import { newId, nowSeconds, type ChargeObject, type ListObject, type TransferObject } from './objects.js';
import { succeededCharge } from './payment-intents.js';

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

/** GET /v1/transfers: newest first, filtered by transfer_group and destination, paged like Stripe's lists. */
export function listTransfers(call: ApiCall): ListObject<TransferObject> {
  const { params } = call;
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw new ParameterError('This value must be between 1 and 100.', { param: 'limit' });
  const group = params.string('transfer_group');
  const destination = params.string('destination');
  const startingAfter = params.string('starting_after');
  let matching = Object.values(call.op.store.data.transfers)
    .reverse()
    .filter((transfer) => (group === undefined || transfer.transfer_group === group) && (destination === undefined || transfer.destination === destination));
  if (startingAfter !== undefined) matching = matching.slice(matching.findIndex((transfer) => transfer.id === startingAfter) + 1);
  return { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit, url: '/v1/transfers' };
}
