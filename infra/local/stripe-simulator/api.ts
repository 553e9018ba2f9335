import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { createAccount, createAccountLink, retrieveAccount, updateAccount } from './accounts.js';
import { listBalanceTransactions, retrieveBalance } from './balance.js';
import { authenticationError, noSuchObject, ParameterError, secretKeyRequired, StripeApiError, unrecognizedUrl, unsupported } from './errors.js';
import { checkExpandPaths, expandAnswer, type ExpansionTarget } from './expand.js';
import { IdempotencyLayer, type IdempotentRequest } from './idempotency.js';
import { newId, type JsonObject, type StripeEvent } from './objects.js';
import { Operation, type ApiCall, type EndpointCount, type KeyType } from './operation.js';
import { ParamReader, parseParams, type Params } from './params.js';
import { cancelPaymentIntent, confirmPaymentIntent, createPaymentIntent, listCharges, retrievePaymentIntent } from './payment-intents.js';
import { createCustomer, retrieveCustomer } from './customers.js';
import { closeDispute, listDisputes, updateDispute } from './disputes.js';
import { createPayout, listPayouts } from './payouts.js';
import { createRefund, listRefunds } from './refunds.js';
import type { SimulatorStore } from './store.js';
import { createTransfer, createTransferReversal, listTransferReversals, listTransfers } from './transfers.js';
import { cancelVerificationSession, createVerificationSession, listVerificationSessions, redactVerificationSession, retrieveVerificationSession } from './verification-sessions.js';

type Handler = (call: ApiCall) => JsonObject;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: Handler;
  /** What the answer is, for `expand[]`; routes without it expand nothing. */
  answers?: ExpansionTarget;
  /** Stripe.js may call it with the publishable key (and the client secret). */
  publishable?: true;
  /** The platform may call it as one of its connected accounts (the Stripe-Account header). */
  connected?: true;
}

const route = (method: Route['method'], path: string, handler: Handler, options: Pick<Route, 'answers' | 'publishable' | 'connected'> = {}): Route => ({
  method,
  pattern: new RegExp(`^${path.replace(':id', '([^/]+)')}$`),
  handler,
  ...options,
});

/** GET of a stored object by the id in the path. */
const retrieve =
  (collection: 'charges' | 'balanceTransactions' | 'refunds' | 'transfers' | 'payouts' | 'disputes', kind: string): Handler =>
  ({ op, id, account }) => {
    const object = op.store.data[collection][id];
    // A connected account's own objects are seen only as that account, the platform's only as the platform.
    if (!object || op.store.data.ownerAccounts[id] !== account) throw noSuchObject(kind, id);
    return object;
  };

const retrieveEvent: Handler = ({ op, id }) => {
  const event = op.store.data.events.find((candidate) => candidate.id === id);
  if (!event) throw noSuchObject('event', id);
  return event;
};

const ROUTES: Route[] = [
  route('POST', '/v1/accounts', createAccount, { answers: { object: 'account' } }),
  route('GET', '/v1/accounts/:id', retrieveAccount, { answers: { object: 'account' } }),
  route('POST', '/v1/accounts/:id', updateAccount, { answers: { object: 'account' } }),
  route('POST', '/v1/account_links', createAccountLink),
  route('POST', '/v1/customers', createCustomer, { answers: { object: 'customer' } }),
  route('GET', '/v1/customers/:id', retrieveCustomer, { answers: { object: 'customer' } }),
  route('POST', '/v1/payment_intents', createPaymentIntent, { answers: { object: 'payment_intent' } }),
  route('GET', '/v1/payment_intents/:id', retrievePaymentIntent, { answers: { object: 'payment_intent' }, publishable: true }),
  route('POST', '/v1/payment_intents/:id/confirm', confirmPaymentIntent, { answers: { object: 'payment_intent' }, publishable: true }),
  route('POST', '/v1/payment_intents/:id/cancel', cancelPaymentIntent, { answers: { object: 'payment_intent' } }),
  route('GET', '/v1/charges', listCharges, { answers: { object: 'charge', list: true } }),
  route('GET', '/v1/charges/:id', retrieve('charges', 'charge'), { answers: { object: 'charge' } }),
  route('GET', '/v1/balance_transactions', listBalanceTransactions, { answers: { object: 'balance_transaction', list: true }, connected: true }),
  route('GET', '/v1/balance_transactions/:id', retrieve('balanceTransactions', 'balance_transaction'), { answers: { object: 'balance_transaction' }, connected: true }),
  route('POST', '/v1/refunds', createRefund, { answers: { object: 'refund' } }),
  route('GET', '/v1/refunds', listRefunds, { answers: { object: 'refund', list: true } }),
  route('GET', '/v1/refunds/:id', retrieve('refunds', 'refund'), { answers: { object: 'refund' } }),
  route('POST', '/v1/transfers', createTransfer, { answers: { object: 'transfer' } }),
  route('GET', '/v1/transfers', listTransfers, { answers: { object: 'transfer', list: true } }),
  route('GET', '/v1/transfers/:id', retrieve('transfers', 'transfer'), { answers: { object: 'transfer' } }),
  route('POST', '/v1/transfers/:id/reversals', createTransferReversal, { answers: { object: 'transfer_reversal' } }),
  route('GET', '/v1/transfers/:id/reversals', listTransferReversals, { answers: { object: 'transfer_reversal', list: true } }),
  route('GET', '/v1/disputes', listDisputes, { answers: { object: 'dispute', list: true } }),
  route('GET', '/v1/disputes/:id', retrieve('disputes', 'dispute'), { answers: { object: 'dispute' } }),
  route('POST', '/v1/disputes/:id', updateDispute, { answers: { object: 'dispute' } }),
  route('POST', '/v1/disputes/:id/close', closeDispute, { answers: { object: 'dispute' } }),
  route('GET', '/v1/balance', retrieveBalance, { connected: true }),
  route('POST', '/v1/payouts', createPayout, { answers: { object: 'payout' }, connected: true }),
  route('GET', '/v1/payouts', listPayouts, { answers: { object: 'payout', list: true }, connected: true }),
  route('GET', '/v1/payouts/:id', retrieve('payouts', 'payout'), { answers: { object: 'payout' }, connected: true }),
  route('POST', '/v1/identity/verification_sessions', createVerificationSession, { answers: { object: 'identity.verification_session' } }),
  route('GET', '/v1/identity/verification_sessions', listVerificationSessions, { answers: { object: 'identity.verification_session', list: true } }),
  route('GET', '/v1/identity/verification_sessions/:id', retrieveVerificationSession, { answers: { object: 'identity.verification_session' } }),
  route('POST', '/v1/identity/verification_sessions/:id/cancel', cancelVerificationSession, { answers: { object: 'identity.verification_session' } }),
  route('POST', '/v1/identity/verification_sessions/:id/redact', redactVerificationSession, { answers: { object: 'identity.verification_session' } }),
  route('GET', '/v1/events/:id', retrieveEvent),
];

export interface ApiRequest {
  method: string;
  path: string;
  /** The query string, with or without its leading '?'. */
  query: string;
  body: string;
  headers: IncomingHttpHeaders;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Events the request created, to deliver now that it is answered. */
  events: StripeEvent[];
}

const NO_API_KEY =
  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Stripe quotes a wrong key with all but its start and end masked. */
const maskKey = (key: string) => `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export interface StripeApiOptions {
  store: SimulatorStore;
  /** The secret keys that work now: one, or two while a rolled key has not expired (the simulator changes it). */
  secretKeys: ReadonlySet<string>;
  publishableKey: string;
  baseUrl: string;
  webhookEndpointCount: EndpointCount;
}

/**
 * Stripe's v1 HTTP API over the store. `handle` is synchronous from parsing to storing the answer:
 * with Node's single thread, no two requests ever interleave, which is what makes a repeated
 * idempotency key (even twenty at once) execute exactly once and replay for the rest.
 */
export class StripeApi {
  private readonly idempotency: IdempotencyLayer;

  constructor(private readonly options: StripeApiOptions) {
    this.idempotency = new IdempotencyLayer(options.store);
  }

  handle(request: ApiRequest): ApiAnswer {
    const requestId = newId('req', 14);
    const idempotencyKey = request.method === 'POST' ? header(request.headers['idempotency-key']) : undefined;
    const headers: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': header(request.headers['stripe-version']) ?? Stripe.API_VERSION,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    };
    try {
      const params = parseParams(new URLSearchParams(request.method === 'POST' ? request.body : request.query));
      const { apiKey, keyType } = this.authenticate(request.headers, params);
      const { route, id } = this.match(request.method, request.path);
      if (keyType === 'publishable' && !route.publishable) throw secretKeyRequired();
      const account = header(request.headers['stripe-account']);
      if (account !== undefined) this.checkConnectedAccount(route, apiKey, account);
      const reader = new ParamReader(params);
      const expand = reader.list('expand');
      checkExpandPaths(route.answers, expand);

      // Stripe scopes idempotency keys per account the request acts as.
      const idempotent: IdempotentRequest | undefined = idempotencyKey ? { scope: `${apiKey} ${account ?? ''} ${idempotencyKey}`, key: idempotencyKey, endpoint: request.path, params } : undefined;
      const replay = idempotent && this.idempotency.replay(idempotent);
      if (replay) {
        return { status: replay.status, body: replay.body, headers: { ...headers, 'idempotent-replayed': 'true', 'original-request': replay.requestId }, events: [] };
      }

      const op = new Operation(this.options.store, { id: requestId, idempotency_key: idempotencyKey ?? null }, this.options.webhookEndpointCount);
      const { status, body, kept } = this.execute(route, { op, id, params: reader, keyType, baseUrl: this.options.baseUrl, ...(account !== undefined ? { account } : {}) }, expand);
      if (request.method === 'POST') {
        if (idempotent && kept) this.idempotency.remember(idempotent, { status, body, requestId });
        this.options.store.save();
      }
      return { status, body, headers, events: op.events };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      return { status: error.status, body: { error: error.body }, headers, events: [] };
    }
  }

  /** Runs the endpoint. Its errors are answers too; all but parameter errors are kept for idempotent replay, as on Stripe. */
  private execute(route: Route, call: ApiCall, expand: string[]): { status: number; body: unknown; kept: boolean } {
    try {
      return { status: 200, body: expandAnswer(this.options.store, route.handler(call), expand), kept: true };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      return { status: error.status, body: { error: error.body }, kept: !(error instanceof ParameterError) };
    }
  }

  /**
   * The key comes as Bearer (the SDK), Basic (curl -u) or, as Stripe.js sends it, a `key`
   * parameter: the latter keeps a browser's form POST free of a CORS preflight.
   */
  private authenticate(headers: IncomingHttpHeaders, params: Params): { apiKey: string; keyType: KeyType } {
    const authorization = header(headers.authorization) ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const basic = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
    const formKey = params.key;
    delete params.key;
    const apiKey = bearer ?? (basic && Buffer.from(basic, 'base64').toString('utf8').split(':')[0]) ?? (typeof formKey === 'string' ? formKey : undefined);
    if (!apiKey) throw authenticationError(NO_API_KEY);
    if (this.options.secretKeys.has(apiKey)) return { apiKey, keyType: 'secret' };
    if (apiKey === this.options.publishableKey) return { apiKey, keyType: 'publishable' };
    throw authenticationError(`Invalid API Key provided: ${maskKey(apiKey)}`);
  }

  /** The Stripe-Account header: on the routes that model it, naming one of the platform's accounts (Stripe answers 403 otherwise). */
  private checkConnectedAccount(route: Route, apiKey: string, account: string): void {
    if (!route.connected) throw unsupported('Stripe-Account', 'acting as a connected account (the Stripe-Account header) on this endpoint');
    if (!this.options.store.data.accounts[account]) {
      throw new StripeApiError(403, {
        type: 'invalid_request_error',
        message: `The provided key '${maskKey(apiKey)}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
      });
    }
  }

  private match(method: string, path: string): { route: Route; id: string } {
    for (const candidate of ROUTES) {
      const found = candidate.method === method && candidate.pattern.exec(path);
      if (found) return { route: candidate, id: decodeURIComponent(found[1] ?? '') };
    }
    throw unrecognizedUrl(method, path);
  }
}
