import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CORS_HEADERS, listen, readBody, sendJson } from './http-util.js';
import { StripeApi } from './stripe-simulator/api.js';
import type { DisputeObject, DisputeReason, StripeEvent } from './stripe-simulator/objects.js';
import { AuthenticationPages } from './stripe-simulator/authentication.js';
import { disputeCharge } from './stripe-simulator/disputes.js';
import { IdentityPages } from './stripe-simulator/identity.js';
import { Operation } from './stripe-simulator/operation.js';
import { OnboardingPages } from './stripe-simulator/onboarding.js';
import { SimulatorStore } from './stripe-simulator/store.js';
import { WebhookSender, type DeliveryAttempt } from './stripe-simulator/webhooks.js';
import { STRIPE_SLOW_MS, WEBHOOK_CHAOS, type FaultSwitch } from './faults.js';

export type { DisputeObject, DisputeReason, StripeEvent } from './stripe-simulator/objects.js';
export type { DeliveryAttempt } from './stripe-simulator/webhooks.js';

export interface StripeSimulatorOptions {
  /** 0 picks a free port. */
  port: number;
  /** Every API request must carry it, or a key rolled from it (401 otherwise), e.g. 'sk_test_local'. */
  secretKey: string;
  /** Accepted only where Stripe.js uses it: reading and confirming a PaymentIntent with its client secret. */
  publishableKey: string;
  /** Signs deliveries to the account's own endpoint ('whsec_…'). */
  webhookSecret: string;
  /** Where the account's own events are POSTed; settable later. Without one, they are recorded but not sent. */
  webhookUrl?: string;
  /** Signs deliveries to the Connect endpoint, which has its own secret as in Stripe ('whsec_…'). */
  connectWebhookSecret: string;
  /** Where events of connected accounts (`account.*`) are POSTed, as Stripe sends them to Connect endpoints only. */
  connectWebhookUrl?: string;
  /** The event types each endpoint is subscribed to (its `enabled_events`); others are not sent to it. @default every type, Stripe's `*` */
  enabledEvents?: { readonly account?: readonly string[]; readonly connect?: readonly string[] };
  /** Keeps every object, event and idempotent answer in this JSON file between runs (dev); in memory without it. */
  stateFile?: string;
  /** The `stripe` faults: down, slow, error, webhooks-chaos (faults.ts). */
  faults?: FaultSwitch;
  /** How long an identity verification submitted with an "async" test outcome stays processing. @default 5000 */
  identityProcessingMs?: number;
}

export interface StripeSimulator {
  /** http://127.0.0.1:<port>; give the SDK `host: '127.0.0.1', port, protocol: 'http'`. */
  url: string;
  port: number;
  setWebhookUrl(url: string): void;
  setConnectWebhookUrl(url: string): void;
  /**
   * Test control: deliver every event this many times (duplicates, sent at the same moment), and/or
   * the events of one request in shuffled order, and/or late. Settings stay until changed.
   */
  setDelivery(options: { copies?: number; shuffle?: boolean; delayMs?: number }): void;
  /**
   * Test control: events are still created (and listed by `events()`) but sent to neither
   * endpoint until releaseDeliveries, as when Stripe's deliveries fail for a while: the app has
   * not heard of a change made straight in Stripe. Holding again while held changes nothing.
   */
  holdDeliveries(): void;
  /** Stops holding and sends the held events, in creation order; answers them. */
  releaseDeliveries(): StripeEvent[];
  /**
   * Test control: the cardholder's bank disputes a succeeded charge now, as it may at any time
   * after the payment (Stripe's test card 4000 0000 0000 0259 does it at once). The dispute is
   * for the unrefunded amount unless `amount` is given, `fraudulent` unless another reason is;
   * `charge.dispute.created` and `charge.dispute.funds_withdrawn` follow. Throws for a charge that
   * did not succeed, is fully refunded, or already has its one dispute. The same over HTTP, for a
   * process that does not hold the simulator: `POST /bank/disputes/<charge id>` (400 when refused).
   */
  disputeCharge(chargeId: string, options?: { amount?: number; reason?: DisputeReason }): DisputeObject;
  /** Re-deliver an already sent event (by id), as Stripe's dashboard "resend" does. */
  redeliver(eventId: string): Promise<void>;
  /** All events created, oldest first. */
  events(): StripeEvent[];
  /** Resolves when no delivery (including retries) is in flight. */
  idle(): Promise<void>;
  /**
   * The dashboard's "Roll key" (Developers → API keys) with an expiry: answers a new secret
   * key; every key that worked keeps working until expireSecretKey.
   */
  rollSecretKey(): string;
  /** A rolled key's expiry: requests with it are refused as Stripe refuses an expired key (401). */
  expireSecretKey(key: string): void;
  /**
   * The dashboard's "Roll secret" of a webhook endpoint with an expiry: answers the new signing
   * secret; each delivery carries a signature with it and one with every secret not expired.
   */
  rollWebhookSecret(endpoint: 'account' | 'connect'): string;
  /** A rolled signing secret's expiry: deliveries are signed without it. */
  expireWebhookSecret(endpoint: 'account' | 'connect', secret: string): void;
  /** Every attempt to deliver an event to each endpoint so far (retries included) and its HTTP status (0: no answer). */
  deliveryAttempts(): { account: DeliveryAttempt[]; connect: DeliveryAttempt[] };
  close(): Promise<void>;
}

/** Stripe.js sends no custom headers, but a hand-written card form may send `Authorization`, which `*` does not cover. */
const PREFLIGHT_HEADERS = { ...CORS_HEADERS, 'access-control-allow-headers': '*, authorization' };

/**
 * A local stand-in for Stripe in test mode, for `npm run dev` and the tests (no network reaches
 * api.stripe.com here). The official SDK talks to it through its host/port/protocol options; it
 * implements the Connect flows the app uses (Express accounts and onboarding, payment intents
 * with Stripe's test cards, refunds, transfers, balance, disputes), Stripe Identity's verification
 * sessions with a test-mode page of outcomes, and delivers webhooks signed
 * as Stripe signs them, with retries, and duplicates, shuffling or holding on request.
 */
export async function startStripeSimulator(options: StripeSimulatorOptions): Promise<StripeSimulator> {
  const store = new SimulatorStore(options.stateFile);
  const webhooks = new WebhookSender(options.webhookSecret, options.webhookUrl, options.enabledEvents?.account);
  const connectWebhooks = new WebhookSender(options.connectWebhookSecret, options.connectWebhookUrl, options.enabledEvents?.connect);
  const senderFor = (event: StripeEvent) => (event.account ? connectWebhooks : webhooks);
  const endpointCount = (connected: boolean) => (connected ? connectWebhooks : webhooks).endpointCount;
  /** Events created while deliveries are held (holdDeliveries), oldest first; undefined when not held. */
  let held: StripeEvent[] | undefined;
  /** Each event goes to the endpoint Stripe would send it to: Connect events to the Connect endpoint only. */
  const send = (events: StripeEvent[]) => {
    if (held) {
      held.push(...events);
      return;
    }
    webhooks.send(events.filter((event) => !event.account));
    connectWebhooks.send(events.filter((event) => event.account));
  };
  const onboarding = new OnboardingPages(store, endpointCount);
  const authentication = new AuthenticationPages(store, endpointCount);
  const identity = new IdentityPages(store, endpointCount, send, options.identityProcessingMs ?? 5000);

  const { faults } = options;
  const setDelivery: StripeSimulator['setDelivery'] = (delivery) => {
    webhooks.setDelivery(delivery);
    connectWebhooks.setDelivery(delivery);
  };
  faults?.onChange((target, fault) => {
    if (target !== 'stripe') return;
    setDelivery(fault?.mode === 'webhooks-chaos' ? WEBHOOK_CHAOS : { copies: 1, shuffle: false, delayMs: 0 });
  });
  let erredCalls = 0;
  /** Whether a struck fault answered (or dropped) the request; `slow` only delays it. */
  const injectFault = async (res: ServerResponse): Promise<boolean> => {
    const fault = faults?.strike('stripe');
    if (fault === 'down') {
      // Nothing answers: the connection is cut, which the SDK reports as a StripeConnectionError.
      res.socket?.destroy();
      return true;
    }
    if (fault === 'slow') await sleep(STRIPE_SLOW_MS);
    if (fault === 'error') {
      // Stripe's own failures, alternately: its 500 (with Stripe-Should-Retry: false, as Stripe
      // sends most, so the SDK does not retry it) and its 429 rate limit.
      erredCalls += 1;
      if (erredCalls % 2) {
        sendJson(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred (fault: stripe error)' } }, { ...CORS_HEADERS, 'stripe-should-retry': 'false' });
      } else {
        sendJson(res, 429, { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests made to the API too quickly (fault: stripe error)' } }, CORS_HEADERS);
      }
      return true;
    }
    return false;
  };

  /** A chargeback opened by the card's bank, its events sent as Stripe sends them. */
  const disputeChargeNow = (chargeId: string, disputeOptions?: Parameters<StripeSimulator['disputeCharge']>[1]) => {
    const op = new Operation(store, { id: null, idempotency_key: null }, endpointCount);
    const dispute = disputeCharge(op, chargeId, disputeOptions);
    store.save();
    send(op.events);
    return structuredClone(dispute);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      if (method !== 'OPTIONS' && (await injectFault(res))) return;
      const url = new URL(req.url ?? '/', listening.url);
      if (method === 'OPTIONS') {
        res.writeHead(204, PREFLIGHT_HEADERS);
        res.end();
        return;
      }
      const body = (await readBody(req)).toString('utf8');
      if (url.pathname.startsWith('/onboarding/')) {
        const page = onboarding.handle(method, url.pathname);
        res.writeHead(page.status, page.location ? { location: page.location } : { 'content-type': 'text/html; charset=utf-8' });
        res.end(page.html);
        send(page.events);
        return;
      }
      if (url.pathname.startsWith('/authenticate/')) {
        // The card form answers the challenge from the app's page, as Stripe.js's frame does.
        const page = authentication.handle(method, url.pathname);
        res.writeHead(page.status, { ...CORS_HEADERS, ...(page.location ? { location: page.location } : { 'content-type': 'text/html; charset=utf-8' }) });
        res.end(page.html);
        send(page.events);
        return;
      }
      if (url.pathname.startsWith('/identity/')) {
        // A VerificationSession's hosted test page, and the outcome the app's own test dialog posts
        // (with fetch from its origin, asking for JSON).
        const params = new URLSearchParams(url.search);
        for (const [name, value] of new URLSearchParams(method === 'POST' ? body : '')) params.append(name, value);
        const wantsJson = (req.headers.accept ?? '').includes('application/json');
        const page = identity.handle({ method, path: url.pathname, params, wantsJson });
        if (page.json !== undefined) {
          sendJson(res, page.status, page.json, CORS_HEADERS);
        } else {
          res.writeHead(page.status, { ...CORS_HEADERS, ...(page.location ? { location: page.location } : { 'content-type': 'text/html; charset=utf-8' }) });
          res.end(page.html);
        }
        send(page.events);
        return;
      }
      const bankDispute = /^\/bank\/disputes\/([^/]+)$/.exec(url.pathname);
      if (bankDispute && method === 'POST') {
        // The card's bank opens a chargeback on a charge, at any time (disputeCharge, over HTTP):
        // the browser tests' way to it, as their process does not hold the simulator.
        try {
          sendJson(res, 200, disputeChargeNow(decodeURIComponent(bankDispute[1]!)));
        } catch (error) {
          sendJson(res, 400, { error: { message: error instanceof Error ? error.message : String(error) } });
        }
        return;
      }
      const answer = api.handle({ method, path: url.pathname, query: url.search, body, headers: req.headers });
      sendJson(res, answer.status, answer.body, { ...CORS_HEADERS, ...answer.headers });
      send(answer.events);
    })().catch((error: unknown) => {
      console.error('[stripe] request failed', error);
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: 'An unexpected error occurred in the local Stripe simulator.' } });
    });
  });

  const listening = await listen(server, options.port);
  const secretKeys = new Set([options.secretKey]);
  const api = new StripeApi({
    store,
    secretKeys,
    publishableKey: options.publishableKey,
    baseUrl: listening.url,
    webhookEndpointCount: endpointCount,
  });

  return {
    url: listening.url,
    port: listening.port,
    setWebhookUrl: (url) => webhooks.setUrl(url),
    setConnectWebhookUrl: (url) => connectWebhooks.setUrl(url),
    setDelivery,
    holdDeliveries: () => {
      held ??= [];
    },
    releaseDeliveries: () => {
      const released = held ?? [];
      held = undefined;
      send(released);
      return released;
    },
    disputeCharge: (chargeId, disputeOptions) => disputeChargeNow(chargeId, disputeOptions),
    redeliver: async (eventId) => {
      const event = store.data.events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`No such event: '${eventId}'`);
      await senderFor(event).redeliver(event);
    },
    events: () => [...store.data.events],
    idle: async () => {
      await Promise.all([webhooks.idle(), connectWebhooks.idle()]);
    },
    rollSecretKey: () => {
      const key = `sk_test_${randomBytes(24).toString('base64url')}`;
      secretKeys.add(key);
      return key;
    },
    expireSecretKey: (key) => {
      if (!secretKeys.has(key) || secretKeys.size === 1) throw new Error(`${key} is not a rolled key that may expire`);
      secretKeys.delete(key);
    },
    rollWebhookSecret: (endpoint) => {
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      (endpoint === 'account' ? webhooks : connectWebhooks).rollSecret(secret);
      return secret;
    },
    expireWebhookSecret: (endpoint, secret) => (endpoint === 'account' ? webhooks : connectWebhooks).expireSecret(secret),
    deliveryAttempts: () => ({ account: webhooks.deliveryAttempts(), connect: connectWebhooks.deliveryAttempts() }),
    close: async () => {
      identity.close();
      webhooks.stop();
      connectWebhooks.stop();
      try {
        await listening.close();
      } finally {
        store.flush();
      }
    },
  };
}
