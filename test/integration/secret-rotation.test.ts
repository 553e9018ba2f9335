import { setTimeout as sleep } from 'node:timers/promises';
import { GetQueueAttributesCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { JobPaymentStart } from '../../shared/api.js';
import { EVENT_SOURCE, STRIPE_WEBHOOK_ENDPOINTS, type StripeWebhookEndpoint } from '../../functions/routes.js';
import { OUTBOX_PREFIX, keys } from '../../functions/table.js';
import { STRIPE_API_VERSION } from '../../functions/lib/stripe.js';
import { LOCAL_CREDENTIALS, LOCAL_STRIPE_KEYS } from '../../infra/local/stack.js';
import { jobForm } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type ApiResponse } from '../support/local-stack.js';
import { APP_ORIGIN, TEST_CARDS, settle, stripeKeysSecret } from '../support/payments.js';

/** The functions' maximum age of keys read from a secret, shortened from the deploy's 5 minutes. */
const MAX_AGE_SECONDS = 2;
/**
 * The procedure's "after 5 minutes every function uses it", with room to spare as the
 * dashboard's expiry of an hour leaves it: twice the maximum age.
 */
const EVERY_FUNCTION_READ_AGAIN_MS = 2 * MAX_AGE_SECONDS * 1000;
/** Requests that keep the traffic up: each onboards a new poster and pays for a job. */
const CONCURRENT_LOOPS = 3;

type Phase = 'before' | 'api key rolled' | 'old api key expired' | 'webhook secrets rolled' | 'old webhook secrets expired';

interface Answer {
  /** What was called: an API route, the simulator's onboarding page, Stripe.js's confirmation, or a delivery. */
  readonly step: string;
  readonly phase: Phase;
  readonly status: number;
  readonly body?: unknown;
}

describe("rotating Stripe's keys as docs/deploy.md orders it, while requests flow", () => {
  const stack = useLocalStack({ secretMaxAgeSeconds: MAX_AGE_SECONDS, clientBudgetPerMinute: Infinity });

  it('fails no request, applies every webhook once, and then refuses the old key and the old signing secrets', async () => {
    const simulator = stack().stripe;
    const secret = stripeKeysSecret(stack());
    let phase: Phase = 'before';
    const answers: Answer[] = [];
    const record = (step: string, status: number, body?: unknown) => {
      answers.push({ step, phase, status, ...(status >= 400 ? { body } : {}) });
      return status < 400;
    };
    const call = async <T>(step: string, path: string, options: Parameters<typeof api>[3]): Promise<ApiResponse<T> | undefined> => {
      const answer = await api<T>(stack(), 'POST', path, options);
      return record(step, answer.status, answer.body) ? answer : undefined;
    };

    /**
     * One user's way through every call that needs the secret key or brings a webhook: connect
     * a payment account (Stripe creates it; its `account.updated` goes to the Connect endpoint),
     * read its status, post a job (a PaymentIntent), pay it in the browser with the publishable
     * key (its `payment_intent.succeeded` goes to the account endpoint) and confirm it.
     */
    async function onboardAndPay(): Promise<void> {
      const poster = await createUser(stack(), { role: 'poster' });
      const link = await call<{ accountLinkUrl: string }>('POST /payments/account', '/payments/account', { token: poster.idToken, headers: { origin: APP_ORIGIN } });
      if (!link) return;
      const onboarded = await fetch(`${link.body.accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
      if (!record('onboarding page', onboarded.status, await onboarded.text())) return;
      if (!(await call('POST /payments/account/status', '/payments/account/status', { token: poster.idToken }))) return;
      const started = await call<JobPaymentStart>('POST /jobs', '/jobs', { token: poster.idToken, body: jobForm });
      if (!started) return;
      const { paymentIntentId, clientSecret } = started.body.payment;
      // Stripe.js's confirmation: a form POST with the publishable key and the client secret.
      const confirmed = await fetch(`${simulator.url}/v1/payment_intents/${paymentIntentId}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key: LOCAL_STRIPE_KEYS.publishableKey, client_secret: clientSecret, payment_method: TEST_CARDS.succeeds }),
      });
      if (!record('Stripe.js confirm', confirmed.status, await confirmed.json())) return;
      await call('POST /payments/confirm', '/payments/confirm', { token: poster.idToken, body: { paymentIntentId } });
    }

    let stopped = false;
    /** Resolvers of waits for a whole onboardAndPay begun after the wait began. */
    let waiting: Array<{ since: number; done(): void }> = [];
    let started = 0;
    const loops = Array.from({ length: CONCURRENT_LOOPS }, async () => {
      while (!stopped) {
        const number = ++started;
        await onboardAndPay();
        waiting = waiting.filter((wait) => (number > wait.since ? (wait.done(), false) : true));
      }
    });
    /** Waits until one user went through all of onboardAndPay in the current phase (traffic covers every phase). */
    const oneMoreUser = () => new Promise<void>((done) => waiting.push({ since: started, done }));

    /** Deliveries signed before a roll that arrive during its overlap: with the old secret only. */
    const oldSecrets = { account: LOCAL_STRIPE_KEYS.webhookSecret, connect: LOCAL_STRIPE_KEYS.connectWebhookSecret };
    let lateDeliveryCount = 0;
    const deliverSignedWith = async (endpoint: StripeWebhookEndpoint, signingSecret: string) => {
      const id = `evt_late_${endpoint}_${++lateDeliveryCount}`;
      // A type no rule handles: the delivery is received and published, and changes nothing.
      const payload = JSON.stringify({ id, object: 'event', api_version: STRIPE_API_VERSION, type: 'balance.available', data: { object: { object: 'balance' } } }, null, 2);
      const response = await fetch(`${stack().urls.api}${STRIPE_WEBHOOK_ENDPOINTS[endpoint].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: signingSecret }) },
        body: payload,
      });
      return { id, status: response.status, body: await response.text() };
    };
    const lateDeliveries: string[] = [];
    const lateDelivery = async (endpoint: StripeWebhookEndpoint) => {
      const delivery = await deliverSignedWith(endpoint, oldSecrets[endpoint]);
      if (record(`late delivery to the ${endpoint} endpoint`, delivery.status, delivery.body)) lateDeliveries.push(delivery.id);
    };
    let lateDeliveriesOn = false;
    const lateDeliveryLoop = (async () => {
      while (!stopped) {
        if (lateDeliveriesOn) await Promise.all([lateDelivery('account'), lateDelivery('connect')]);
        await sleep(100);
      }
    })();

    try {
      await oneMoreUser();

      // 1. The secret API key: rolled in the dashboard with an expiry, so the old key keeps
      // working; the new key put in the secret; once every function uses it, the old key expires.
      const oldKey = LOCAL_STRIPE_KEYS.secretKey;
      const newKey = simulator.rollSecretKey();
      phase = 'api key rolled';
      await secret.put({ ...(await secret.read()), secretKey: newKey });
      await Promise.all([sleep(EVERY_FUNCTION_READ_AGAIN_MS), oneMoreUser()]);
      simulator.expireSecretKey(oldKey);
      phase = 'old api key expired';
      await oneMoreUser();

      // 2. Both webhook signing secrets: rolled in the dashboard with an expiry (Stripe signs
      // with both until then); in the secret the new one, and the old as `previous…`.
      const newSecrets = { account: simulator.rollWebhookSecret('account'), connect: simulator.rollWebhookSecret('connect') };
      phase = 'webhook secrets rolled';
      lateDeliveriesOn = true;
      const withNewSecrets = {
        ...(await secret.read()),
        webhookSecret: newSecrets.account,
        connectWebhookSecret: newSecrets.connect,
      };
      await secret.put({ ...withNewSecrets, previousWebhookSecret: oldSecrets.account, previousConnectWebhookSecret: oldSecrets.connect });
      await Promise.all([sleep(EVERY_FUNCTION_READ_AGAIN_MS), oneMoreUser()]);
      // Every function now verifies with the new secrets: a delivery signed with the old one
      // alone passes on `previous…` only.
      lateDeliveriesOn = false;
      await lateDelivery('account');
      await lateDelivery('connect');
      // The old secrets expire in the dashboard; then the `previous…` fields go.
      simulator.expireWebhookSecret('account', oldSecrets.account);
      simulator.expireWebhookSecret('connect', oldSecrets.connect);
      phase = 'old webhook secrets expired';
      await secret.put(withNewSecrets);
      await Promise.all([sleep(EVERY_FUNCTION_READ_AGAIN_MS), oneMoreUser()]);
    } finally {
      stopped = true;
      await Promise.all([...loops, lateDeliveryLoop]);
    }
    await settle(stack());

    // No request failed, in any phase, and every phase had traffic.
    expect(answers.filter((answer) => answer.status >= 400)).toEqual([]);
    const phases: Phase[] = ['before', 'api key rolled', 'old api key expired', 'webhook secrets rolled', 'old webhook secrets expired'];
    expect(phases.filter((each) => !answers.some((answer) => answer.phase === each && answer.step === 'POST /payments/confirm'))).toEqual([]);

    // Every webhook the simulator sent was accepted at its first attempt, so none was retried ...
    const attempts = simulator.deliveryAttempts();
    const delivered = [...attempts.account, ...attempts.connect];
    expect(attempts.account.some((attempt) => attempt.type === 'payment_intent.succeeded')).toBe(true);
    expect(attempts.connect.some((attempt) => attempt.type === 'account.updated')).toBe(true);
    expect(delivered.filter((attempt) => attempt.status !== 200)).toEqual([]);
    const deliveredIds = delivered.map((attempt) => attempt.eventId);
    expect(new Set(deliveredIds).size).toBe(deliveredIds.length);

    // ... and was published exactly once, as was every late delivery; nothing was left undone.
    const published = await stripeEventsInOutbox();
    expect([...published.keys()].sort()).toEqual([...deliveredIds, ...lateDeliveries].sort());
    expect([...published.values()].filter((count) => count !== 1)).toEqual([]);
    const succeeded = delivered.filter((attempt) => attempt.type === 'payment_intent.succeeded').map((attempt) => attempt.eventId);
    const unprocessed = [];
    for (const eventId of succeeded) {
      const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.idempotency('stripe', eventId) }));
      if (!Item) unprocessed.push(eventId);
    }
    expect(unprocessed).toEqual([]);
    expect(await deadLetterCount()).toBe(0);

    // After the rotation the old signing secrets and the old key are refused.
    for (const endpoint of ['account', 'connect'] as const) {
      expect((await deliverSignedWith(endpoint, oldSecrets[endpoint])).status, `${endpoint} endpoint, old secret`).toBe(400);
    }
    const simulatorUrl = new URL(simulator.url);
    const stripeWith = (key: string) => new Stripe(key, { host: simulatorUrl.hostname, port: Number(simulatorUrl.port), protocol: 'http', maxNetworkRetries: 0 });
    await expect(stripeWith(LOCAL_STRIPE_KEYS.secretKey).balance.retrieve()).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    expect((await stripeWith((await secret.read()).secretKey!).balance.retrieve()).object).toBe('balance');
  }, 90_000);

  /** How many times each Stripe event id was published to the outbox (the webhook endpoints' one write). */
  async function stripeEventsInOutbox(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await tableClient(stack()).send(
        new ScanCommand({
          TableName: stack().tableName,
          FilterExpression: 'begins_with(pk, :outbox) AND #source = :stripe',
          ExpressionAttributeNames: { '#source': 'source' },
          ExpressionAttributeValues: { ':outbox': OUTBOX_PREFIX, ':stripe': EVENT_SOURCE.stripe },
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const { id } = JSON.parse(item.detail as string) as { id: string };
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return counts;
  }

  /** Messages in every dead-letter queue: events a handler gave up on. */
  async function deadLetterCount(): Promise<number> {
    // Tried as the test's table reads are (test/support/local-stack.ts tableClient): the machine may be running two CI lanes.
    const sqs = new SQSClient({ endpoint: stack().urls.queues, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 6 });
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({}));
    let count = 0;
    for (const QueueUrl of QueueUrls.filter((url) => url.includes('DeadLetterQueue'))) {
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
      count += Number(Attributes?.ApproximateNumberOfMessages ?? 0);
    }
    return count;
  }
});
