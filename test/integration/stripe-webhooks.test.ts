import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { MSG } from '../../shared/messages.js';
import { STRIPE_API_VERSION } from '../../functions/lib/stripe.js';
import { OUTBOX_PREFIX } from '../../functions/table.js';
import { LOCAL_STRIPE_KEYS } from '../../infra/local/stack.js';
import { api, createUser, tableClient, useLocalStack } from '../support/local-stack.js';
import { APP_ORIGIN, stripeKeysSecret } from '../support/payments.js';

describe('Stripe keys and webhook endpoints', () => {
  const stack = useLocalStack();

  it('answers 503 while the Stripe keys are not set, and pays again once they are, without a restart', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const connect = () => api(stack(), 'POST', '/payments/account', { token: worker.idToken, headers: { origin: APP_ORIGIN } });
    // As after the first deploy: the secret holds a placeholder, not the keys; the operator
    // then fills it (docs/deploy.md) and the next request reads it.
    const secret = stripeKeysSecret(stack());
    const keys = await secret.read();
    await secret.put('placeholder');
    try {
      expect(await connect()).toEqual({ status: 503, body: { error: MSG.payments.unavailable } });
      expect((await connect()).status).toBe(503);
    } finally {
      await secret.put(keys);
    }
    expect((await connect()).status).toBe(200);
  });

  const eventOf = (id: string, apiVersion: string) =>
    JSON.stringify({ id, object: 'event', api_version: apiVersion, type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
  const deliver = (path: string, secret: string, payload: string) =>
    fetch(`${stack().urls.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
      body: payload,
    });

  it('verifies each endpoint with its own signing secret', async () => {
    const payload = eventOf('evt_test_endpoints', STRIPE_API_VERSION);
    const post = (path: string, secret: string) => deliver(path, secret, payload).then((response) => response.status);
    expect(await post('/webhooks/stripe', LOCAL_STRIPE_KEYS.webhookSecret)).toBe(200);
    expect(await post('/webhooks/stripe/connect', LOCAL_STRIPE_KEYS.connectWebhookSecret)).toBe(200);
    expect(await post('/webhooks/stripe', LOCAL_STRIPE_KEYS.connectWebhookSecret)).toBe(400);
    expect(await post('/webhooks/stripe/connect', LOCAL_STRIPE_KEYS.webhookSecret)).toBe(400);
    await stack().events.idle();
  });

  it('refuses a signed event of another API version than the one the handlers are written for, and publishes nothing', async () => {
    const response = await deliver('/webhooks/stripe', LOCAL_STRIPE_KEYS.webhookSecret, eventOf('evt_test_other_version', '2024-06-20'));
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 400, body: { error: MSG.backend.stripeApiVersion } });
    const { Items = [] } = await tableClient(stack()).send(
      new ScanCommand({ TableName: stack().tableName, FilterExpression: 'begins_with(pk, :outbox) AND contains(detail, :id)', ExpressionAttributeValues: { ':outbox': OUTBOX_PREFIX, ':id': 'evt_test_other_version' } }),
    );
    expect(Items).toEqual([]);
  });
});
