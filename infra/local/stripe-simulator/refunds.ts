import type { ApiCall } from './operation.js';
import { invalidRequest, noSuchObject, ParameterError } from './errors.js';
import { dollars, positiveAmount, recordBalanceTransaction } from './balance.js';
import { chargedBack } from './disputes.js';
import { newId, nowSeconds, type ChargeObject, type ListObject, type RefundObject } from './objects.js';
import { listPage } from './lists.js';
import { succeededCharge } from './payment-intents.js';

function chargeToRefund(call: ApiCall): ChargeObject {
  const intentId = call.params.string('payment_intent');
  const chargeId = call.params.string('charge');
  if (chargeId !== undefined) return succeededCharge(call, chargeId, 'charge');
  if (intentId === undefined) {
    throw new ParameterError('One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing' });
  }
  const intent = call.op.store.data.paymentIntents[intentId];
  if (!intent) throw noSuchObject('payment_intent', intentId, 'payment_intent');
  if (intent.status !== 'succeeded' || !intent.latest_charge) {
    throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, { param: 'payment_intent' });
  }
  return succeededCharge(call, intent.latest_charge, 'payment_intent');
}

/** POST /v1/refunds: refunds at once (test mode), in full unless an amount is given. */
export function createRefund(call: ApiCall): RefundObject {
  const { params, op } = call;
  const requested = params.integer('amount');
  const reason = params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer']) ?? null;
  const metadata = params.metadata();
  const charge = chargeToRefund(call);
  if (chargedBack(op.store, charge.id)) throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, { code: 'charge_disputed' });
  const refundable = charge.amount - charge.amount_refunded;
  if (refundable === 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
  const amount = requested === undefined ? refundable : positiveAmount(requested);
  if (amount > refundable) {
    throw invalidRequest(`Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(refundable)})`, { code: 'amount_too_large', param: 'amount' });
  }

  const id = newId('re');
  const refund: RefundObject = {
    id,
    object: 'refund',
    amount,
    balance_transaction: recordBalanceTransaction(op.store, { type: 'refund', amount: -amount, source: id, description: 'REFUND FOR CHARGE' }).id,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    status: 'succeeded',
  };
  op.store.data.refunds[id] = refund;
  const before = structuredClone(charge);
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  op.emit('refund.created', refund);
  op.emit('charge.refunded', charge, before);
  return refund;
}

/** GET /v1/refunds: newest first, filtered by charge, payment_intent and created, paged like Stripe's lists. */
export function listRefunds(call: ApiCall): ListObject<RefundObject> {
  const charge = call.params.string('charge');
  const intent = call.params.string('payment_intent');
  return listPage(call, Object.values(call.op.store.data.refunds), '/v1/refunds', (refund) => (charge === undefined || refund.charge === charge) && (intent === undefined || refund.payment_intent === intent));
}
