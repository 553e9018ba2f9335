import type Stripe from 'stripe';
import type { ApiCall, Operation } from './operation.js';
import { invalidRequest, noSuchObject, ParameterError, secretKeyRequired, StripeApiError, unsupported } from './errors.js';
import { cardFee, dollars, recordBalanceTransaction, usdOnly } from './balance.js';
import { cardOfDetails, cardOfTestPaymentMethod, testCard, type Card, type CardFailure } from './cards.js';
import { findCustomer } from './customers.js';
import { openDispute } from './disputes.js';
import { listPage } from './lists.js';
import { newId, nowSeconds, randomToken, type ChargeObject, type ListObject, type PaymentIntentObject, type SavedPaymentMethod } from './objects.js';

/** Stripe's limits for a USD charge. */
const MINIMUM_AMOUNT = 50;
const MAXIMUM_AMOUNT = 99_999_999;

/** PaymentIntent features the app does not use; asking for them fails instead of being silently ignored. */
const UNMODELLED_CREATE_PARAMS: Record<string, string> = {
  application_fee_amount: 'application fees (application_fee_amount)',
  on_behalf_of: 'on_behalf_of',
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
  'setup_future_usage',
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
export function createPaymentIntent(call: ApiCall): PaymentIntentObject | PublishablePaymentIntent {
  const { params } = call;
  for (const [param, feature] of Object.entries(UNMODELLED_CREATE_PARAMS)) {
    if (params.params[param] !== undefined) throw unsupported(param, feature);
  }
  const amount = params.requiredInteger('amount');
  if (amount < MINIMUM_AMOUNT) throw new ParameterError(`Amount must be at least ${dollars(MINIMUM_AMOUNT)} usd`, { code: 'amount_too_small', param: 'amount' });
  if (amount > MAXIMUM_AMOUNT) throw new ParameterError(`Amount must be no more than ${dollars(MAXIMUM_AMOUNT)}`, { code: 'amount_too_large', param: 'amount' });
  const captureMethod = params.oneOf('capture_method', ['automatic', 'automatic_async', 'manual']) ?? 'automatic_async';
  if (captureMethod === 'manual') throw unsupported('capture_method', 'manual capture');
  const confirm = params.boolean('confirm') ?? false;
  if (params.params.off_session !== undefined && !confirm) {
    throw new ParameterError('You may only specify `off_session` when `confirm` is true.', { param: 'off_session' });
  }
  const customerId = params.string('customer');
  if (customerId !== undefined) findCustomer(call.op.store, customerId, 'customer');
  const setupFutureUsage = params.oneOf('setup_future_usage', ['off_session', 'on_session']) ?? null;
  if (setupFutureUsage && customerId === undefined) {
    throw new ParameterError('A customer is required to save a PaymentMethod for future use (setup_future_usage).', { param: 'setup_future_usage' });
  }

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
    customer: customerId ?? null,
    description: params.string('description') ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: params.metadata(),
    next_action: null,
    payment_method: null,
    receipt_email: params.string('receipt_email') ?? null,
    setup_future_usage: setupFutureUsage,
    status: 'requires_payment_method',
    transfer_group: params.string('transfer_group') ?? null,
  };
  call.op.store.data.paymentIntents[id] = intent;
  call.op.emit('payment_intent.created', intent);
  // `confirm: true` is the same confirmation as POST …/confirm, in the same request.
  return confirm ? attemptPayment(call, intent) : intent;
}

/** GET /v1/payment_intents/:id — with the secret key, or a publishable key and the client secret. */
export const retrievePaymentIntent = (call: ApiCall) => visible(call, findPaymentIntent(call));

const RAW_CARD_DATA_REFUSED =
  'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing.';

const REUSED_WITHOUT_CUSTOMER =
  'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.';

/** A PaymentMethod saved by an earlier payment: only its customer's intents may use it, and one never saved only once. */
function savedCard(call: ApiCall, intent: PaymentIntentObject, saved: SavedPaymentMethod): Card {
  if (saved.customer !== null && saved.customer !== intent.customer) {
    throw invalidRequest(`The provided PaymentMethod ${saved.id} belongs to a Customer that is not the Customer of this PaymentIntent.`, { param: 'payment_method' });
  }
  if (saved.customer === null && saved.used) throw invalidRequest(REUSED_WITHOUT_CUSTOMER, { param: 'payment_method' });
  return testCard(saved.number, 12, new Date().getFullYear() + 1)!;
}

/**
 * The card to charge and its PaymentMethod: a test PaymentMethod id or a saved one (servers), or
 * card details (a browser form, publishable key), each of the latter a new PaymentMethod.
 */
function cardToCharge(call: ApiCall, intent: PaymentIntentObject): { card: Card; paymentMethod: SavedPaymentMethod } {
  const { paymentMethods } = call.op.store.data;
  const fresh = (card: Card) => {
    const paymentMethod: SavedPaymentMethod = { id: newId('pm'), number: card.number, customer: null, used: false };
    paymentMethods[paymentMethod.id] = paymentMethod;
    return { card, paymentMethod };
  };
  const paymentMethodId = call.params.string('payment_method');
  if (paymentMethodId !== undefined) {
    const saved = paymentMethods[paymentMethodId];
    if (saved) return { card: savedCard(call, intent, saved), paymentMethod: saved };
    const card = cardOfTestPaymentMethod(paymentMethodId);
    if (!card) throw invalidRequest(`No such PaymentMethod: '${paymentMethodId}'`, { code: 'resource_missing', param: 'payment_method' });
    return fresh(card);
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
  return fresh(cardOfDetails(card));
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
    disputed: false,
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

/** What Stripe answers when an off-session payment needs the cardholder's 3-D Secure (docs.stripe.com/payments/save-during-payment). */
const AUTHENTICATION_REQUIRED: CardFailure = {
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

const AUTHENTICATION_FAILED = 'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.';

/**
 * One payment attempt of a confirmation. A test card either succeeds at once (automatic capture),
 * is declined, or (the "always authenticate" card) asks for 3-D Secure: on-session the intent
 * waits in requires_action for the simulator's challenge page; off-session there is nobody to
 * ask, so it fails with authentication_required. A failure records a failed charge, sends the
 * intent back to requires_payment_method with last_payment_error, and answers 402, as on Stripe.
 */
function attemptPayment(call: ApiCall, intent: PaymentIntentObject) {
  const offSession = call.params.boolean('off_session') ?? false;
  const returnUrl = call.params.string('return_url');
  const { card, paymentMethod } = cardToCharge(call, intent);
  paymentMethod.used = true;
  if (card.alwaysAuthenticate && !offSession) {
    const challenge = `${call.baseUrl}/authenticate/${intent.id}`;
    intent.status = 'requires_action';
    intent.payment_method = paymentMethod.id;
    intent.last_payment_error = null;
    intent.next_action = returnUrl
      ? { type: 'redirect_to_url', redirect_to_url: { return_url: returnUrl, url: challenge } }
      : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: challenge, source: paymentMethod.id } };
    call.op.emit('payment_intent.requires_action', intent);
    return visible(call, intent);
  }
  const failure = card.alwaysAuthenticate ? AUTHENTICATION_REQUIRED : card.failure;
  settle(call.op, intent, card, paymentMethod, failure);
  if (failure) throw new StripeApiError(402, { type: 'card_error', ...failure, charge: intent.latest_charge ?? undefined, payment_intent: visible(call, intent) });
  return visible(call, intent);
}

/** Charges the card (or records its failure) and moves the intent to succeeded or back to requires_payment_method. */
function settle(op: Operation, intent: PaymentIntentObject, card: Card, paymentMethod: SavedPaymentMethod, failure: CardFailure | undefined): void {
  const charge = recordCharge(op, intent, { ...card, ...(failure ? { failure } : {}) }, paymentMethod.id);
  intent.latest_charge = charge.id;
  intent.next_action = null;
  if (failure) {
    const { code, decline_code, message, param } = failure;
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.last_payment_error = { type: 'card_error', charge: charge.id, code, message, payment_method_type: 'card', ...(decline_code ? { decline_code } : {}), ...(param ? { param } : {}) };
    op.emit('charge.failed', charge);
    op.emit('payment_intent.payment_failed', intent);
    return;
  }
  // A payment that asked to save its card attaches the PaymentMethod to the intent's customer.
  if (intent.setup_future_usage && intent.customer) paymentMethod.customer = intent.customer;
  intent.payment_method = paymentMethod.id;
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  op.emit('charge.succeeded', charge);
  op.emit('payment_intent.succeeded', intent);
  // Stripe's dispute test card: its cardholder's bank disputes the whole payment straight away.
  if (card.disputed) openDispute(op, charge, charge.amount, 'fraudulent');
}

/** POST /v1/payment_intents/:id/confirm */
export function confirmPaymentIntent(call: ApiCall) {
  const intent = findPaymentIntent(call);
  if (intent.status === 'succeeded') throw unexpectedState('You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.');
  if (intent.status === 'canceled') {
    throw unexpectedState(
      'You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action, requires_payment_method.',
    );
  }
  return attemptPayment(call, intent);
}

/**
 * The cardholder's answer on the simulator's 3-D Secure page (what the bank's challenge is on
 * Stripe): completed, the payment goes through; failed, the intent needs another payment method.
 * False when the intent is not waiting for authentication.
 */
export function answerAuthentication(op: Operation, intent: PaymentIntentObject, completed: boolean): boolean {
  if (intent.status !== 'requires_action' || !intent.payment_method) return false;
  const paymentMethod = op.store.data.paymentMethods[intent.payment_method];
  if (!paymentMethod) return false;
  const card = testCard(paymentMethod.number, 12, new Date().getFullYear() + 1)!;
  if (completed) {
    settle(op, intent, card, paymentMethod, card.failure);
    return true;
  }
  intent.status = 'requires_payment_method';
  intent.payment_method = null;
  intent.next_action = null;
  intent.last_payment_error = { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTHENTICATION_FAILED, payment_method_type: 'card' };
  op.emit('payment_intent.payment_failed', intent);
  return true;
}

/** POST /v1/payment_intents/:id/cancel */
export function cancelPaymentIntent(call: ApiCall): PaymentIntentObject {
  const intent = findPaymentIntent(call);
  if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_action') {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  }
  intent.cancellation_reason = call.params.oneOf('cancellation_reason', ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer']) ?? null;
  intent.status = 'canceled';
  intent.next_action = null;
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

/** GET /v1/charges: newest first (failed ones too, as Stripe lists them), filtered by payment_intent, transfer_group and created, paged like Stripe's lists. */
export function listCharges(call: ApiCall): ListObject<ChargeObject> {
  const intent = call.params.string('payment_intent');
  const group = call.params.string('transfer_group');
  return listPage(call, Object.values(call.op.store.data.charges), '/v1/charges', (charge) => (intent === undefined || charge.payment_intent === intent) && (group === undefined || charge.transfer_group === group));
}
