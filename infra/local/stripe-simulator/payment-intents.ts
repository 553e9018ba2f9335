import type Stripe from 'stripe';
import type { ApiCall, Operation } from './operation.js';
import { invalidRequest, noSuchObject, ParameterError, secretKeyRequired, StripeApiError, unsupported } from './errors.js';
import { cardFee, dollars, recordBalanceTransaction, usdOnly } from './balance.js';
import { cardOfDetails, cardOfTestPaymentMethod, type Card } from './cards.js';
import { newId, nowSeconds, randomToken, type ChargeObject, type PaymentIntentObject } from './objects.js';

/** Stripe's limits for a USD charge. */
const MINIMUM_AMOUNT = 50;
const MAXIMUM_AMOUNT = 99_999_999;

/** PaymentIntent features the app does not use; asking for them fails instead of being silently ignored. */
const UNMODELLED_CREATE_PARAMS: Record<string, string> = {
  application_fee_amount: 'application fees (application_fee_amount)',
  customer: 'customers',
  on_behalf_of: 'on_behalf_of',
  payment_method: 'attaching a payment method at creation; pass it to the confirm call',
  setup_future_usage: 'saving payment methods (setup_future_usage)',
  transfer_data: 'destination charges (transfer_data); use separate transfers',
};

/** The fields Stripe returns when a PaymentIntent is read with a publishable key (Stripe.js). */
const PUBLISHABLE_FIELDS = [
  'id',
  'object',
  'amount',
  'automatic_payment_methods',
  'canceled_at',
  'cancellation_reason',
  'capture_method',
  'client_secret',
  'confirmation_method',
  'created',
  'currency',
  'description',
  'last_payment_error',
  'livemode',
  'next_action',
  'payment_method',
  'payment_method_types',
  'receipt_email',
  'status',
] as const satisfies readonly (keyof PaymentIntentObject)[];

export type PublishablePaymentIntent = Pick<PaymentIntentObject, (typeof PUBLISHABLE_FIELDS)[number]>;

const unexpectedState = (message: string) => invalidRequest(message, { code: 'payment_intent_unexpected_state' });

function findPaymentIntent(call: ApiCall): PaymentIntentObject {
  const intent = call.op.store.data.paymentIntents[call.id];
  if (!intent) throw noSuchObject('payment_intent', call.id);
  if (call.keyType === 'publishable') {
    // Stripe.js proves it may act on the intent with the client secret the server handed out.
    const clientSecret = call.params.string('client_secret');
    if (clientSecret === undefined) throw secretKeyRequired();
    if (clientSecret !== intent.client_secret) {
      throw invalidRequest('The client_secret provided does not match the client_secret associated with the PaymentIntent.', { param: 'client_secret' });
    }
  }
  return intent;
}

/** The intent as the caller's key may see it. */
function visible(call: ApiCall, intent: PaymentIntentObject): PaymentIntentObject | PublishablePaymentIntent {
  if (call.keyType === 'secret') return intent;
  return Object.fromEntries(PUBLISHABLE_FIELDS.map((field) => [field, intent[field]])) as PublishablePaymentIntent;
}

function paymentMethodTypes(call: ApiCall): Pick<PaymentIntentObject, 'automatic_payment_methods' | 'payment_method_types'> {
  const listed = call.params.list('payment_method_types');
  const automatic = call.params.hash('automatic_payment_methods');
  if (listed.length && automatic) {
    throw new ParameterError('You may only specify one of these parameters: automatic_payment_methods, payment_method_types.', { param: 'automatic_payment_methods' });
  }
  if (listed.some((type) => type !== 'card')) throw unsupported('payment_method_types', 'payment methods other than cards');
  if (listed.length) return { automatic_payment_methods: null, payment_method_types: ['card'] };
  // Since API version 2023-08-16, automatic payment methods are on unless turned off.
  const enabled = automatic?.boolean('enabled') ?? true;
  return { automatic_payment_methods: enabled ? { enabled, allow_redirects: 'always' } : { enabled }, payment_method_types: ['card'] };
}

/** POST /v1/payment_intents */
export function createPaymentIntent(call: ApiCall): PaymentIntentObject {
  const { params } = call;
  for (const [param, feature] of Object.entries(UNMODELLED_CREATE_PARAMS)) {
    if (params.params[param] !== undefined) throw unsupported(param, feature);
  }
  if (params.boolean('confirm')) throw unsupported('confirm', 'confirming at creation; call POST /v1/payment_intents/:id/confirm');
  const amount = params.requiredInteger('amount');
  if (amount < MINIMUM_AMOUNT) throw new ParameterError(`Amount must be at least ${dollars(MINIMUM_AMOUNT)} usd`, { code: 'amount_too_small', param: 'amount' });
  if (amount > MAXIMUM_AMOUNT) throw new ParameterError(`Amount must be no more than ${dollars(MAXIMUM_AMOUNT)}`, { code: 'amount_too_large', param: 'amount' });
  const captureMethod = params.oneOf('capture_method', ['automatic', 'automatic_async', 'manual']) ?? 'automatic_async';
  if (captureMethod === 'manual') throw unsupported('capture_method', 'manual capture');

  const id = newId('pi');
  const intent: PaymentIntentObject = {
    id,
    object: 'payment_intent',
    amount,
    amount_capturable: 0,
    amount_received: 0,
    ...paymentMethodTypes(call),
    canceled_at: null,
    cancellation_reason: null,
    capture_method: captureMethod,
    client_secret: `${id}_secret_${randomToken(25)}`,
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: usdOnly(params.requiredString('currency')),
    description: params.string('description') ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: params.metadata(),
    next_action: null,
    payment_method: null,
    receipt_email: params.string('receipt_email') ?? null,
    status: 'requires_payment_method',
    transfer_group: params.string('transfer_group') ?? null,
  };
  call.op.store.data.paymentIntents[id] = intent;
  call.op.emit('payment_intent.created', intent);
  return intent;
}

/** GET /v1/payment_intents/:id — with the secret key, or a publishable key and the client secret. */
export const retrievePaymentIntent = (call: ApiCall) => visible(call, findPaymentIntent(call));

const RAW_CARD_DATA_REFUSED =
  'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing.';

/** The card to charge: a test PaymentMethod id (servers) or card details (a browser form, publishable key). */
function cardToCharge(call: ApiCall): Card {
  const paymentMethod = call.params.string('payment_method');
  if (paymentMethod !== undefined) {
    const card = cardOfTestPaymentMethod(paymentMethod);
    if (!card) throw invalidRequest(`No such PaymentMethod: '${paymentMethod}'`, { code: 'resource_missing', param: 'payment_method' });
    return card;
  }
  const data = call.params.hash('payment_method_data');
  if (!data) {
    throw unexpectedState("You cannot confirm this PaymentIntent because it's missing a payment method. Update the PaymentIntent with a payment method and then confirm it again.");
  }
  if (data.requiredString('type') !== 'card') throw unsupported('payment_method_data[type]', 'payment methods other than cards');
  // Like Stripe in test mode, card numbers are taken only from the browser, never from a server.
  if (call.keyType === 'secret') throw invalidRequest(RAW_CARD_DATA_REFUSED, { param: 'payment_method_data[card][number]' });
  const card = data.hash('card');
  if (!card) throw new ParameterError('Missing required param: payment_method_data[card].', { code: 'parameter_missing', param: 'payment_method_data[card]' });
  return cardOfDetails(card);
}

const APPROVED: Stripe.Charge.Outcome = {
  advice_code: null,
  network_advice_code: null,
  network_decline_code: null,
  network_status: 'approved_by_network',
  reason: null,
  risk_level: 'normal',
  seller_message: 'Payment complete.',
  type: 'authorized',
};

function recordCharge(op: Operation, intent: PaymentIntentObject, card: Card, paymentMethod: string): ChargeObject {
  const { failure } = card;
  const charge: ChargeObject = {
    id: newId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_captured: failure ? 0 : intent.amount,
    amount_refunded: 0,
    balance_transaction: null,
    captured: !failure,
    created: nowSeconds(),
    currency: intent.currency,
    description: intent.description,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    livemode: false,
    // Stripe copies the intent's metadata onto its charges.
    metadata: { ...intent.metadata },
    outcome: failure
      ? {
          ...APPROVED,
          network_status: 'declined_by_network',
          reason: failure.decline_code ?? failure.code,
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        }
      : APPROVED,
    paid: !failure,
    payment_intent: intent.id,
    payment_method: paymentMethod,
    payment_method_details: { type: 'card', card: card.details },
    refunded: false,
    status: failure ? 'failed' : 'succeeded',
    transfer_group: intent.transfer_group,
  };
  if (!failure) {
    const fee = cardFee(charge.amount);
    charge.balance_transaction = recordBalanceTransaction(op.store, { type: 'charge', amount: charge.amount, fee, source: charge.id, description: charge.description }).id;
  }
  op.store.data.charges[charge.id] = charge;
  return charge;
}

/**
 * POST /v1/payment_intents/:id/confirm. A test card either succeeds at once (automatic capture, no
 * 3-D Secure) or is declined: then, as on Stripe, a failed charge is recorded, the intent goes back
 * to requires_payment_method with last_payment_error, and the call answers 402.
 */
export function confirmPaymentIntent(call: ApiCall) {
  const intent = findPaymentIntent(call);
  if (intent.status === 'succeeded') throw unexpectedState('You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.');
  if (intent.status === 'canceled') {
    throw unexpectedState(
      'You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action, requires_payment_method.',
    );
  }
  const card = cardToCharge(call);
  const paymentMethod = newId('pm');
  const charge = recordCharge(call.op, intent, card, paymentMethod);
  intent.latest_charge = charge.id;
  if (card.failure) {
    const { code, decline_code, message, param } = card.failure;
    intent.payment_method = null;
    intent.last_payment_error = { type: 'card_error', charge: charge.id, code, message, payment_method_type: 'card', ...(decline_code ? { decline_code } : {}), ...(param ? { param } : {}) };
    call.op.emit('charge.failed', charge);
    call.op.emit('payment_intent.payment_failed', intent);
    throw new StripeApiError(402, { type: 'card_error', ...card.failure, charge: charge.id, payment_intent: visible(call, intent) });
  }
  intent.payment_method = paymentMethod;
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  call.op.emit('charge.succeeded', charge);
  call.op.emit('payment_intent.succeeded', intent);
  return visible(call, intent);
}

/** POST /v1/payment_intents/:id/cancel */
export function cancelPaymentIntent(call: ApiCall): PaymentIntentObject {
  const intent = findPaymentIntent(call);
  if (intent.status !== 'requires_payment_method') {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  }
  intent.cancellation_reason = call.params.oneOf('cancellation_reason', ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer']) ?? null;
  intent.status = 'canceled';
  intent.canceled_at = nowSeconds();
  call.op.emit('payment_intent.canceled', intent);
  return intent;
}

/** The charge a refund or transfer names: it must exist and have succeeded. */
export function succeededCharge(call: ApiCall, id: string, param: string): ChargeObject {
  const charge = call.op.store.data.charges[id];
  if (!charge) throw noSuchObject('charge', id, param);
  if (charge.status !== 'succeeded') throw invalidRequest(`Charge ${id} did not succeed (status ${charge.status}).`, { param });
  return charge;
}
