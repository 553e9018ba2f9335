import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { LOCAL_STRIPE_KEYS } from '../../infra/local/stack.js';
import { api, createUser, useLocalStack } from '../support/local-stack.js';
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

  it('verifies each endpoint with its own signing secret', async () => {
    const payload = JSON.stringify({ id: 'evt_test_endpoints', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
    const post = (path: string, secret: string) =>
      fetch(`${stack().urls.api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
        body: payload,
      }).then((response) => response.status);
    expect(await post('/webhooks/stripe', LOCAL_STRIPE_KEYS.webhookSecret)).toBe(200);
    expect(await post('/webhooks/stripe/connect', LOCAL_STRIPE_KEYS.connectWebhookSecret)).toBe(200);
    expect(await post('/webhooks/stripe', LOCAL_STRIPE_KEYS.connectWebhookSecret)).toBe(400);
    expect(await post('/webhooks/stripe/connect', LOCAL_STRIPE_KEYS.webhookSecret)).toBe(400);
    await stack().events.idle();
  });
});
