import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, readBody, type Listening } from '../../infra/local/http-util.js';
import { startStripeSimulator, type StripeSimulator } from '../../infra/local/stripe-simulator.js';

const KEYS = {
  secretKey: 'sk_test_local',
  publishableKey: 'pk_test_local',
  webhookSecret: 'whsec_local_simulator_secret',
  connectWebhookSecret: 'whsec_local_simulator_connect_secret',
};
const APP = 'http://localhost:5173';

/** Every POST the webhook endpoint received, and the verified event when it answered 2xx. */
interface DeliveryAttempt {
  payload: string;
  signature: string;
  status: number;
  event?: Stripe.Event;
}

/**
 * A webhook endpoint of our own, verifying each delivery on the raw body as the app's handler
 * does. `refuseNext` makes it answer 500 to that many deliveries first.
 */
async function startWebhookReceiver(secret: string) {
  const attempts: DeliveryAttempt[] = [];
  let refusals = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const payload = body.toString('utf8');
      const signature = String(req.headers['stripe-signature']);
      let attempt: DeliveryAttempt;
      if (refusals > 0) {
        refusals--;
        attempt = { payload, signature, status: 500 };
      } else {
        try {
          attempt = { payload, signature, status: 200, event: Stripe.webhooks.constructEvent(payload, signature, secret) };
        } catch {
          attempt = { payload, signature, status: 400 };
        }
      }
      attempts.push(attempt);
      res.writeHead(attempt.status).end();
    });
  });
  const listening: Listening = await listen(server, 0);
  return {
    ...listening,
    attempts,
    refuseNext: (count: number) => {
      refusals = count;
    },
    /** Verified deliveries about one object, optionally of one event type. */
    eventsAbout: (objectId: string, type?: string) =>
      attempts.flatMap(({ event }) => (event && (event.data.object as { id?: string }).id === objectId && (!type || event.type === type) ? [event] : [])),
  };
}

describe('local Stripe simulator', () => {
  let simulator: StripeSimulator;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  /** The Connect endpoint, with its own signing secret. */
  let connectReceiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let stripe: Stripe;

  const clientFor = (sim: StripeSimulator, key = KEYS.secretKey) => new Stripe(key, { host: '127.0.0.1', port: sim.port, protocol: 'http', maxNetworkRetries: 0 });

  beforeAll(async () => {
    receiver = await startWebhookReceiver(KEYS.webhookSecret);
    connectReceiver = await startWebhookReceiver(KEYS.connectWebhookSecret);
    simulator = await startStripeSimulator({ port: 0, ...KEYS, webhookUrl: receiver.url, connectWebhookUrl: connectReceiver.url });
    stripe = clientFor(simulator);
  });

  afterAll(async () => {
    await simulator?.close();
    await receiver?.close();
    await connectReceiver?.close();
  });

  afterEach(async () => {
    await simulator.idle();
    // Every delivery, whatever the test, must verify with the endpoint's secret.
    expect([...receiver.attempts, ...connectReceiver.attempts].filter(({ status }) => status === 400)).toEqual([]);
    receiver.attempts.length = 0;
    connectReceiver.attempts.length = 0;
    simulator.setDelivery({ copies: 1, shuffle: false });
    receiver.refuseNext(0);
  });

  const createAccount = (email = 'worker@example.com') =>
    stripe.accounts.create({
      type: 'express',
      country: 'US',
      email,
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      business_type: 'individual',
      metadata: { user_id: 'user-1' },
    });

  const createLink = (account: string) =>
    stripe.accountLinks.create({
      account,
      type: 'account_onboarding',
      refresh_url: `${APP}/profile#payment-settings`,
      return_url: `${APP}/worker-dashboard?stripe_setup=success`,
    });

  /** Presses a button on the onboarding page, as the browser's form post does. */
  const pressOnboardingButton = (linkUrl: string, action: 'complete' | 'abandon') => fetch(`${linkUrl}/${action}`, { method: 'POST', redirect: 'manual' });

  const onboardedAccount = async () => {
    const account = await createAccount();
    await pressOnboardingButton((await createLink(account.id)).url, 'complete');
    return account;
  };

  const createIntent = (amount = 2000, metadata: Record<string, string> = { job_id: 'job-1' }) =>
    stripe.paymentIntents.create({ amount, currency: 'usd', metadata, transfer_group: `job_${metadata.job_id}`, description: 'Walk my dog' });

  const paidIntent = async (amount = 2000) => stripe.paymentIntents.confirm((await createIntent(amount)).id, { payment_method: 'pm_card_visa' });

  /** The call our local card form makes from the browser: publishable key and client secret, no preflight. */
  const confirmFromBrowser = async (
    intent: Stripe.PaymentIntent,
    card: { number: string; exp_month?: string; exp_year?: string; cvc?: string },
    key = KEYS.publishableKey,
  ) => {
    const form = new URLSearchParams({ key, client_secret: intent.client_secret ?? '', 'payment_method_data[type]': 'card' });
    for (const [field, value] of Object.entries({ exp_month: '12', exp_year: String(new Date().getFullYear() + 2), cvc: '123', ...card })) {
      form.set(`payment_method_data[card][${field}]`, value);
    }
    const response = await fetch(`${simulator.url}/v1/payment_intents/${intent.id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: APP },
      body: form,
    });
    const body = (await response.json()) as Partial<Stripe.PaymentIntent> & { error?: { type: string; code?: string; decline_code?: string; message: string; param?: string } };
    return { status: response.status, headers: response.headers, body };
  };

  describe('API keys', () => {
    it('refuses an unknown key and the publishable key where Stripe.js has no business', async () => {
      await expect(clientFor(simulator, 'sk_test_wrong_key_1234').balance.retrieve()).rejects.toMatchObject({
        type: 'StripeAuthenticationError',
        statusCode: 401,
        message: expect.stringMatching(/^Invalid API Key provided: sk_test_\**1234$/),
      });
      await expect(clientFor(simulator, KEYS.publishableKey).accounts.create({ type: 'express' })).rejects.toMatchObject({
        type: 'StripeAuthenticationError',
        code: 'secret_key_required',
      });
    });

    it('answers unknown routes with Stripe’s 404', async () => {
      const response = await fetch(`${simulator.url}/v1/customers`, { headers: { authorization: `Bearer ${KEYS.secretKey}` } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL (GET: /v1/customers)') },
      });
      await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 404,
        code: 'resource_missing',
        message: "No such payment_intent: 'pi_missing'",
      });
      // Ids that name what every JavaScript object inherits are unknown objects too.
      for (const id of ['toString', '__proto__', 'constructor']) {
        await expect(stripe.paymentIntents.retrieve(id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      }
    });
  });

  describe('connected accounts and onboarding', () => {
    it('creates an Express account that still needs onboarding', async () => {
      const account = await createAccount();
      expect(account).toMatchObject({
        id: expect.stringMatching(/^acct_\w{16}$/),
        object: 'account',
        type: 'express',
        email: 'worker@example.com',
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { card_payments: 'inactive', transfers: 'inactive' },
        metadata: { user_id: 'user-1' },
        settings: { payouts: { schedule: { interval: 'daily' } } },
      });
      expect(account.requirements?.currently_due).toContain('external_account');
      expect(await stripe.accounts.retrieve(account.id)).toEqual(expect.objectContaining({ id: account.id, details_submitted: false }));

      const updated = await stripe.accounts.update(account.id, { metadata: { role: 'worker' } });
      expect(updated.metadata).toEqual({ user_id: 'user-1', role: 'worker' });
    });

    it('completes onboarding on the account link page and announces it with account.updated', async () => {
      const account = await createAccount('poster@example.com');
      const link = await createLink(account.id);
      expect(link).toMatchObject({ object: 'account_link', url: expect.stringMatching(new RegExp(`^${simulator.url}/onboarding/\\w+$`)) });
      expect(link.expires_at).toBeGreaterThan(link.created);

      const page = await fetch(link.url);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain('<title>Stripe test mode — account onboarding</title>');
      expect(html).toContain(account.id);
      expect(html).toContain('poster@example.com');
      expect(html).toMatch(/<form method="post" action="\/onboarding\/\w+\/complete"><button type="submit"[^>]*>Complete setup<\/button><\/form>/);
      expect(html).toMatch(/<button type="submit"[^>]*>Leave setup unfinished<\/button>/);

      const completed = await pressOnboardingButton(link.url, 'complete');
      expect(completed.status).toBe(303);
      expect(completed.headers.get('location')).toBe(`${APP}/worker-dashboard?stripe_setup=success`);
      expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
        details_submitted: true,
        charges_enabled: true,
        payouts_enabled: true,
        capabilities: { card_payments: 'active', transfers: 'active' },
        requirements: { currently_due: [], past_due: [], disabled_reason: null },
      });

      await simulator.idle();
      // Events of connected accounts go to the Connect endpoint only, signed with its secret.
      expect(receiver.eventsAbout(account.id)).toEqual([]);
      const [updated, ...others] = connectReceiver.eventsAbout(account.id, 'account.updated');
      expect(others).toEqual([]);
      expect(updated).toMatchObject({
        account: account.id,
        data: { object: { id: account.id, charges_enabled: true }, previous_attributes: { charges_enabled: false, details_submitted: false } },
        request: { id: null, idempotency_key: null },
      });

      const reused = await fetch(link.url);
      expect(reused.status).toBe(410);
      expect(await reused.text()).toContain('already been used');
    });

    it('leaves the account incomplete when setup is abandoned, and sends back to refresh_url', async () => {
      const account = await createAccount();
      const link = await createLink(account.id);
      const abandoned = await pressOnboardingButton(link.url, 'abandon');
      expect(abandoned.status).toBe(303);
      expect(abandoned.headers.get('location')).toBe(`${APP}/profile#payment-settings`);
      expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ details_submitted: false, charges_enabled: false, payouts_enabled: false });
      await simulator.idle();
      expect(connectReceiver.eventsAbout(account.id)).toEqual([]);
      expect((await pressOnboardingButton(link.url, 'complete')).status).toBe(410);
    });

    it('shows an error page for an expired link', async () => {
      const link = await createLink((await createAccount()).id);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 10 * 60 * 1000);
        const page = await fetch(link.url);
        expect(page.status).toBe(410);
        expect(await page.text()).toContain('expired');
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('payment intents with test cards', () => {
    it('charges 4242 4242 4242 4242 from the browser card form, with Stripe’s fee', async () => {
      const intent = await createIntent(2000);
      expect(intent).toMatchObject({
        id: expect.stringMatching(/^pi_\w{24}$/),
        status: 'requires_payment_method',
        livemode: false,
        metadata: { job_id: 'job-1' },
        transfer_group: 'job_job-1',
        automatic_payment_methods: { enabled: true },
      });
      expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));

      const preflight = await fetch(`${simulator.url}/v1/payment_intents/${intent.id}/confirm`, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');

      const confirmed = await confirmFromBrowser(intent, { number: '4242 4242 4242 4242' });
      expect(confirmed.status).toBe(200);
      expect(confirmed.headers.get('access-control-allow-origin')).toBe('*');
      expect(confirmed.body).toMatchObject({ id: intent.id, status: 'succeeded' });
      expect(confirmed.body).not.toHaveProperty('metadata');

      const stored = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge.balance_transaction'] });
      const charge = stored.latest_charge as Stripe.Charge;
      const transaction = charge.balance_transaction as Stripe.BalanceTransaction;
      expect(stored).toMatchObject({ status: 'succeeded', amount_received: 2000, payment_method: expect.stringMatching(/^pm_/) });
      expect(charge).toMatchObject({ id: expect.stringMatching(/^ch_/), status: 'succeeded', paid: true, metadata: { job_id: 'job-1' } });
      expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
      // 2.9% of $20.00 is 58¢, plus 30¢.
      expect(transaction).toMatchObject({ id: expect.stringMatching(/^txn_/), amount: 2000, fee: 88, net: 1912, type: 'charge' });
      expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ balance_transaction: transaction.id });
      expect(await stripe.balanceTransactions.retrieve(transaction.id)).toMatchObject({ source: charge.id });

      const fromBrowser = (await (
        await fetch(`${simulator.url}/v1/payment_intents/${intent.id}?key=${KEYS.publishableKey}&client_secret=${intent.client_secret}`)
      ).json()) as Record<string, unknown>;
      expect(fromBrowser).toMatchObject({ id: intent.id, status: 'succeeded' });
      expect(fromBrowser).not.toHaveProperty('latest_charge');

      await simulator.idle();
      expect(receiver.eventsAbout(intent.id).map((event) => event.type)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
      expect(receiver.eventsAbout(charge.id).map((event) => event.type)).toEqual(['charge.succeeded']);
    });

    it('declines 4000 0000 0000 0002 with Stripe’s card error, and the intent can be paid again', async () => {
      const intent = await createIntent();
      const declined = stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' });
      await expect(declined).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
      await expect(declined).rejects.toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });

      const failed = await stripe.paymentIntents.retrieve(intent.id);
      expect(failed).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      });

      const fromBrowser = await confirmFromBrowser(intent, { number: '4000000000000002' });
      expect(fromBrowser.status).toBe(402);
      expect(fromBrowser.body.error).toMatchObject({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' });

      expect((await confirmFromBrowser(intent, { number: '4242424242424242' })).body.status).toBe('succeeded');
      await simulator.idle();
      expect(receiver.eventsAbout(intent.id, 'payment_intent.payment_failed')).toHaveLength(2);
    });

    it('refuses bad card details before charging, with Stripe’s codes', async () => {
      const intent = await createIntent();
      const year = new Date().getFullYear();
      const cases = [
        [{ number: '4242424242424241' }, 'incorrect_number', 'Your card number is incorrect.'],
        [{ number: '4242424242424242', exp_month: '13' }, 'invalid_expiry_month', "Your card's expiration month is invalid."],
        [{ number: '4242424242424242', exp_year: String(year - 1) }, 'invalid_expiry_year', "Your card's expiration year is invalid."],
        [{ number: '4242424242424242', cvc: '12' }, 'invalid_cvc', "Your card's security code is invalid."],
      ] as const;
      for (const [card, code, message] of cases) {
        const answer = await confirmFromBrowser(intent, card);
        expect(answer.status).toBe(402);
        expect(answer.body.error).toMatchObject({ type: 'card_error', code, message });
      }
      expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'requires_payment_method', latest_charge: null, last_payment_error: null });
    });

    it('refuses a wrong client secret, and raw card numbers from a server', async () => {
      const intent = await createIntent();
      const answer = await confirmFromBrowser({ ...intent, client_secret: `${intent.id}_secret_forged` }, { number: '4242424242424242' });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ param: 'client_secret' });
      const fromServer = await confirmFromBrowser(intent, { number: '4242424242424242' }, KEYS.secretKey);
      expect(fromServer.status).toBe(400);
      expect(fromServer.body.error?.message).toContain('Sending credit card numbers directly');
    });

    it('does not confirm a paid intent again, and cancels only unpaid ones', async () => {
      const paid = await paidIntent();
      await expect(stripe.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'payment_intent_unexpected_state',
      });
      await expect(stripe.paymentIntents.cancel(paid.id)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });

      const unpaid = await createIntent();
      const canceled = await stripe.paymentIntents.cancel(unpaid.id, { cancellation_reason: 'abandoned' });
      expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned', canceled_at: expect.any(Number) });
      await expect(stripe.paymentIntents.confirm(unpaid.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
      await simulator.idle();
      expect(receiver.eventsAbout(unpaid.id, 'payment_intent.canceled')).toHaveLength(1);
    });
  });

  describe('refunds', () => {
    it('refunds in full', async () => {
      const paid = await paidIntent(3000);
      const refund = await stripe.refunds.create({ payment_intent: paid.id, reason: 'requested_by_customer', metadata: { job_id: 'job-1' } });
      expect(refund).toMatchObject({ id: expect.stringMatching(/^re_/), object: 'refund', status: 'succeeded', amount: 3000, payment_intent: paid.id, charge: paid.latest_charge });
      expect(await stripe.charges.retrieve(String(paid.latest_charge))).toMatchObject({ refunded: true, amount_refunded: 3000 });
      await simulator.idle();
      expect(receiver.eventsAbout(refund.id, 'refund.created')).toHaveLength(1);
      expect(receiver.eventsAbout(String(paid.latest_charge), 'charge.refunded')).toMatchObject([{ data: { previous_attributes: { amount_refunded: 0, refunded: false } } }]);
    });

    it('refunds in parts up to what remains, then refuses', async () => {
      const paid = await paidIntent(2000);
      const charge = String(paid.latest_charge);
      await stripe.refunds.create({ charge, amount: 500 });
      await expect(stripe.refunds.create({ payment_intent: paid.id, amount: 1600 })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'amount_too_large',
        message: 'Refund amount ($16.00) is greater than unrefunded amount on charge ($15.00)',
      });
      expect(await stripe.refunds.create({ payment_intent: paid.id })).toMatchObject({ amount: 1500 });
      expect(await stripe.charges.retrieve(charge)).toMatchObject({ refunded: true, amount_refunded: 2000 });
      await expect(stripe.refunds.create({ payment_intent: paid.id, amount: 1 })).rejects.toMatchObject({ code: 'charge_already_refunded' });
    });

    it('refuses to refund an unpaid intent', async () => {
      const intent = await createIntent();
      await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'payment_intent' });
    });
  });

  describe('transfers and balance', () => {
    it('pays an onboarded account from the balance, and lists transfers by group', async () => {
      const worker = await onboardedAccount();
      const paid = await paidIntent(5000);
      const before = await stripe.balance.retrieve();
      const transfer = await stripe.transfers.create({ amount: 4000, currency: 'usd', destination: worker.id, transfer_group: 'job_t1', metadata: { job_id: 't1' } });
      expect(transfer).toMatchObject({ id: expect.stringMatching(/^tr_/), object: 'transfer', amount: 4000, destination: worker.id, transfer_group: 'job_t1', reversed: false });
      expect((await stripe.balance.retrieve()).available[0]?.amount).toBe((before.available[0]?.amount ?? 0) - 4000);

      const funded = await stripe.transfers.create({ amount: 1000, currency: 'usd', destination: worker.id, transfer_group: 'job_t1', source_transaction: String(paid.latest_charge) });
      expect(funded.source_transaction).toBe(paid.latest_charge);
      await expect(
        stripe.transfers.create({ amount: 5000, currency: 'usd', destination: worker.id, source_transaction: String(paid.latest_charge) }),
      ).rejects.toMatchObject({ param: 'amount' });

      const listed = await stripe.transfers.list({ transfer_group: 'job_t1' });
      expect(listed.data.map((item) => item.id)).toEqual([funded.id, transfer.id]);
      expect(await stripe.transfers.retrieve(transfer.id, { expand: ['destination'] })).toMatchObject({ destination: { id: worker.id, object: 'account' } });
      await simulator.idle();
      expect(receiver.eventsAbout(transfer.id, 'transfer.created')).toHaveLength(1);
    });

    it('refuses a transfer to an account that has not finished onboarding', async () => {
      await paidIntent(5000);
      const incomplete = await createAccount();
      await expect(stripe.transfers.create({ amount: 100, currency: 'usd', destination: incomplete.id })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'insufficient_capabilities_for_transfer',
      });
      await expect(stripe.transfers.create({ amount: 100, currency: 'usd', destination: 'acct_missing' })).rejects.toMatchObject({ code: 'resource_missing', param: 'destination' });
    });

    it('refuses a transfer beyond the available balance', async () => {
      const worker = await onboardedAccount();
      const balance = await stripe.balance.retrieve();
      const available = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
      await expect(stripe.transfers.create({ amount: available + 1, currency: 'usd', destination: worker.id })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'balance_insufficient',
      });
    });
  });

  describe('transfer reversals', () => {
    it('reverses part then the rest of a transfer back to the platform, once per idempotency key, and lists the reversals', async () => {
      const worker = await onboardedAccount();
      const paid = await paidIntent(5000);
      const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: worker.id, transfer_group: 'job_rev', source_transaction: String(paid.latest_charge) });
      const platformBefore = (await stripe.balance.retrieve()).available[0]?.amount ?? 0;
      const workerBalance = async () => (await stripe.balance.retrieve({}, { stripeAccount: worker.id })).available[0]?.amount;
      expect(await workerBalance()).toBe(3000);

      const part = await stripe.transfers.createReversal(transfer.id, { amount: 1000, metadata: { jobId: 'rev' } }, { idempotencyKey: 'reverse-rev' });
      const replayed = await stripe.transfers.createReversal(transfer.id, { amount: 1000, metadata: { jobId: 'rev' } }, { idempotencyKey: 'reverse-rev' });
      expect(replayed.id).toBe(part.id);
      expect(part).toMatchObject({ id: expect.stringMatching(/^trr_/), object: 'transfer_reversal', amount: 1000, transfer: transfer.id, metadata: { jobId: 'rev' } });
      expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 1000, reversed: false, reversals: { data: [{ id: part.id }] } });
      expect({ platform: (await stripe.balance.retrieve()).available[0]?.amount, worker: await workerBalance() }).toEqual({ platform: platformBefore + 1000, worker: 2000 });
      const transaction = await stripe.balanceTransactions.retrieve(String(part.balance_transaction));
      expect(transaction).toMatchObject({ type: 'transfer_refund', reporting_category: 'transfer_reversal', amount: 1000, source: part.id });

      await expect(stripe.transfers.createReversal(transfer.id, { amount: 2001 })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'amount' });
      const rest = await stripe.transfers.createReversal(transfer.id);
      expect(rest.amount).toBe(2000);
      expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 3000, reversed: true });
      await expect(stripe.transfers.createReversal(transfer.id, { amount: 1 })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });
      await expect(stripe.transfers.createReversal('tr_missing')).rejects.toMatchObject({ code: 'resource_missing', statusCode: 404 });

      const firstPage = await stripe.transfers.listReversals(transfer.id, { limit: 1 });
      expect({ ids: firstPage.data.map((item) => item.id), hasMore: firstPage.has_more }).toEqual({ ids: [rest.id], hasMore: true });
      expect((await stripe.transfers.listReversals(transfer.id).autoPagingToArray({ limit: 10 })).map((item) => item.id)).toEqual([rest.id, part.id]);

      // Reversals of every transfer, by the platform's balance transactions (how reconciliation finds them).
      const reversalTransactions = await stripe.balanceTransactions.list({ type: 'transfer_refund', created: { gte: part.created }, expand: ['data.source.transfer'], limit: 100 });
      const ours = reversalTransactions.data.filter((entry) => ((entry.source as Stripe.TransferReversal).transfer as Stripe.Transfer).id === transfer.id);
      expect(ours.map((entry) => [(entry.source as Stripe.TransferReversal).id, entry.amount, ((entry.source as Stripe.TransferReversal).transfer as Stripe.Transfer).transfer_group])).toEqual([
        [rest.id, 2000, 'job_rev'],
        [part.id, 1000, 'job_rev'],
      ]);
      expect((await stripe.balanceTransactions.list({ source: part.id })).data.map((entry) => entry.id)).toEqual([part.balance_transaction]);
      // A connected account's own transactions are not the platform's.
      expect((await stripe.balanceTransactions.list({ type: 'transfer_refund' }, { stripeAccount: worker.id })).data).toEqual([]);

      await simulator.idle();
      const reversed = receiver.eventsAbout(transfer.id, 'transfer.reversed');
      expect(reversed.map((event) => (event.data.object as Stripe.Transfer).amount_reversed)).toEqual([1000, 3000]);
      expect(reversed[0]?.data.previous_attributes).toMatchObject({ amount_reversed: 0 });
    });

    it('refuses a reversal the connected account no longer holds the money for', async () => {
      const worker = await onboardedAccount();
      const paid = await paidIntent(5000);
      const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: worker.id, source_transaction: String(paid.latest_charge) });
      // The worker cashes $20 out (an Instant Payout, $0.50 fee): $9.50 is left of the $30.
      await stripe.payouts.create({ amount: 2000, currency: 'usd', method: 'instant' }, { stripeAccount: worker.id });
      await expect(stripe.transfers.createReversal(transfer.id, { amount: 1000 })).rejects.toMatchObject({ code: 'balance_insufficient', statusCode: 400 });
      expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 0, reversed: false });
      expect((await stripe.transfers.createReversal(transfer.id, { amount: 950 })).amount).toBe(950);
      expect((await stripe.balance.retrieve({}, { stripeAccount: worker.id })).available[0]?.amount).toBe(0);
    });
  });

  describe('lists of charges, refunds and transfers', () => {
    it('pages newest first and filters by payment intent, transfer group and creation time', async () => {
      const worker = await onboardedAccount();
      const first = await paidIntent(1000);
      const second = await paidIntent(2000);
      const third = await paidIntent(3000);
      const charges = await stripe.charges.list({ limit: 2 });
      expect(charges.data.map((charge) => charge.id)).toEqual([String(third.latest_charge), String(second.latest_charge)]);
      expect(charges.has_more).toBe(true);
      const next = await stripe.charges.list({ limit: 2, starting_after: String(second.latest_charge) });
      expect(next.data[0]?.id).toBe(String(first.latest_charge));
      expect((await stripe.charges.list({ payment_intent: second.id })).data.map((charge) => charge.amount)).toEqual([2000]);
      expect((await stripe.charges.list({ transfer_group: 'job_job-1' })).data.every((charge) => charge.transfer_group === 'job_job-1')).toBe(true);

      const refund = await stripe.refunds.create({ payment_intent: first.id, amount: 400 });
      await stripe.refunds.create({ payment_intent: second.id });
      expect((await stripe.refunds.list({ payment_intent: first.id })).data.map((item) => item.id)).toEqual([refund.id]);
      expect((await stripe.refunds.list({ limit: 1 })).has_more).toBe(true);

      const transfer = await stripe.transfers.create({ amount: 500, currency: 'usd', destination: worker.id, transfer_group: 'job_listed' });
      const at = transfer.created;
      const inWindow = (await stripe.transfers.list({ created: { gte: at, lt: at + 1 }, limit: 100 })).data.map((item) => item.id);
      expect(inWindow).toContain(transfer.id);
      expect((await stripe.transfers.list({ created: { lt: at } })).data.map((item) => item.id)).not.toContain(transfer.id);
      expect((await stripe.transfers.list({ created: { gte: at + 1 } })).data).toEqual([]);
      expect((await stripe.refunds.list({ created: { gte: refund.created + 1 } })).data).toEqual([]);
      expect((await stripe.charges.list({ created: { gte: at + 1 } })).data).toEqual([]);
      expect((await stripe.charges.list({ created: { gte: charges.data[0]!.created }, payment_intent: third.id })).data).toHaveLength(1);
      await expect(stripe.refunds.list({ limit: 101 })).rejects.toMatchObject({ param: 'limit' });
    });
  });

  describe('disputes', () => {
    const platformBalance = async () => (await stripe.balance.retrieve()).available[0]?.amount ?? 0;
    const disputedPayment = async (amount: number) => stripe.paymentIntents.confirm((await createIntent(amount)).id, { payment_method: 'pm_card_createDispute' });
    const eventTypes = (disputeId: string) => receiver.eventsAbout(disputeId).map((event) => event.type);

    it('opens a fraudulent dispute at once on 4000 0000 0000 0259, withdrawing the amount and the $15.00 fee', async () => {
      const before = await platformBalance();
      const paid = await disputedPayment(5000);
      expect(paid.status).toBe('succeeded');
      const charge = await stripe.charges.retrieve(String(paid.latest_charge));
      expect(charge).toMatchObject({ status: 'succeeded', disputed: true, refunded: false });

      const [dispute, ...others] = (await stripe.disputes.list({ charge: charge.id })).data;
      expect(others).toEqual([]);
      expect(dispute).toMatchObject({
        id: expect.stringMatching(/^dp_\w{24}$/),
        object: 'dispute',
        amount: 5000,
        charge: charge.id,
        payment_intent: paid.id,
        currency: 'usd',
        reason: 'fraudulent',
        status: 'needs_response',
        is_charge_refundable: false,
        evidence: { uncategorized_text: null, customer_name: null },
        evidence_details: { has_evidence: false, past_due: false, submission_count: 0 },
        payment_method_details: { type: 'card', card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: '10.4' } },
      });
      // Answer by the end of the seventh UTC day after it opened.
      expect(dispute!.evidence_details.due_by).toBe((Math.floor(dispute!.created / 86_400) + 8) * 86_400 - 1);
      const [withdrawal, ...more] = dispute!.balance_transactions;
      expect(more).toEqual([]);
      expect(withdrawal).toMatchObject({
        type: 'adjustment',
        reporting_category: 'dispute',
        amount: -5000,
        fee: 1500,
        net: -6500,
        source: dispute!.id,
        description: `Chargeback withdrawal for ${charge.id}`,
        fee_details: [{ amount: 1500, description: 'Dispute fee', type: 'stripe_fee' }],
      });
      expect(await stripe.balanceTransactions.retrieve(withdrawal!.id)).toMatchObject({ id: withdrawal!.id, net: -6500 });
      // The payment's net (2.9% + 30¢ = $1.75 off $50.00), less the chargeback and its fee.
      expect(await platformBalance()).toBe(before + 5000 - 175 - 6500);

      await simulator.idle();
      expect(receiver.attempts.map(({ event }) => event?.type)).toEqual(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded', 'charge.dispute.created', 'charge.dispute.funds_withdrawn']);
      expect(connectReceiver.attempts).toEqual([]);
    });

    it('opens a dispute on any succeeded charge at a later time with disputeCharge, one per charge', async () => {
      const paid = await paidIntent(3000);
      const chargeId = String(paid.latest_charge);
      await stripe.refunds.create({ charge: chargeId, amount: 1000 });
      const dispute = simulator.disputeCharge(chargeId, { reason: 'product_not_received' });
      // What the refund left of the charge is disputed.
      expect(dispute).toMatchObject({ charge: chargeId, payment_intent: paid.id, amount: 2000, reason: 'product_not_received', status: 'needs_response', payment_method_details: { card: { network_reason_code: null } } });
      expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({ id: dispute.id, amount: 2000 });
      expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ disputed: true, amount_refunded: 1000 });

      expect(() => simulator.disputeCharge(chargeId)).toThrow(`Charge ${chargeId} already has a dispute (${dispute.id})`);
      const refunded = await paidIntent(1000);
      await stripe.refunds.create({ payment_intent: refunded.id });
      expect(() => simulator.disputeCharge(String(refunded.latest_charge))).toThrow('fully refunded');
      const small = String((await paidIntent(1000)).latest_charge);
      expect(() => simulator.disputeCharge(small, { amount: 1001 })).toThrow(RangeError);
      expect(() => simulator.disputeCharge('ch_missing')).toThrow('ch_missing is not a succeeded charge');
      // The same over HTTP, for a process that does not hold the simulator (the browser tests).
      const byBank = await fetch(`${simulator.url}/bank/disputes/${small}`, { method: 'POST' });
      expect(byBank.status).toBe(200);
      expect(await byBank.json()).toMatchObject({ object: 'dispute', charge: small, amount: 1000 });
      expect((await fetch(`${simulator.url}/bank/disputes/${small}`, { method: 'POST' })).status).toBe(400);

      await simulator.idle();
      const events = receiver.eventsAbout(dispute.id);
      expect(events.map((event) => event.type)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn']);
      // Made by the bank, not by an API request.
      expect(events[0]?.request).toEqual({ id: null, idempotency_key: null });
    });

    it('closes it won on winning evidence: the amount comes back, the dispute fee does not', async () => {
      const paid = await paidIntent(4000);
      const chargeId = String(paid.latest_charge);
      const dispute = simulator.disputeCharge(chargeId);
      const withdrawn = await platformBalance();

      const staged = await stripe.disputes.update(dispute.id, { evidence: { customer_name: 'Pat Poster', uncategorized_text: 'winning_evidence' }, metadata: { job_id: 'job-1' }, submit: false });
      expect(staged).toMatchObject({
        status: 'needs_response',
        evidence: { customer_name: 'Pat Poster', uncategorized_text: 'winning_evidence' },
        evidence_details: { has_evidence: true, submission_count: 0 },
        metadata: { job_id: 'job-1' },
      });
      // Submitting (the default) sends what was staged; the bank's answer follows the response.
      const submitted = await stripe.disputes.update(dispute.id);
      expect(submitted).toMatchObject({ status: 'under_review', evidence_details: { has_evidence: true, submission_count: 1 } });

      const won = await stripe.disputes.retrieve(dispute.id, { expand: ['charge'] });
      expect(won).toMatchObject({ status: 'won', charge: { id: chargeId, disputed: true } });
      expect(won.balance_transactions.map(({ type, reporting_category, amount, fee, net, description }) => ({ type, reporting_category, amount, fee, net, description }))).toEqual([
        { type: 'adjustment', reporting_category: 'dispute', amount: -4000, fee: 1500, net: -5500, description: `Chargeback withdrawal for ${chargeId}` },
        { type: 'adjustment', reporting_category: 'dispute_reversal', amount: 4000, fee: 0, net: 4000, description: `Chargeback reversal for ${chargeId}` },
      ]);
      expect(await platformBalance()).toBe(withdrawn + 4000);

      await simulator.idle();
      expect(eventTypes(dispute.id)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.updated', 'charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_reinstated']);
      const [, , stagedEvent, submittedEvent] = receiver.eventsAbout(dispute.id);
      expect(stagedEvent?.data.previous_attributes).toMatchObject({ metadata: {}, evidence: { customer_name: null } });
      expect(submittedEvent?.data.previous_attributes).toMatchObject({ status: 'needs_response' });

      // Closed for good.
      await expect(stripe.disputes.update(dispute.id, { metadata: { job_id: 'job-2' } })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, message: expect.stringContaining('already closed') });
      await expect(stripe.disputes.close(dispute.id)).rejects.toMatchObject({ statusCode: 400 });
      // The money is the business's again: it may refund it.
      expect(await stripe.refunds.create({ charge: chargeId })).toMatchObject({ amount: 4000 });
    });

    it('closes it lost on losing evidence or when accepted, the funds and the fee withdrawn for good', async () => {
      const submitted = simulator.disputeCharge(String((await paidIntent(2500)).latest_charge));
      const accepted = simulator.disputeCharge(String((await paidIntent(2600)).latest_charge));
      const reviewed = simulator.disputeCharge(String((await paidIntent(2700)).latest_charge));
      const withdrawn = await platformBalance();

      expect(await stripe.disputes.update(submitted.id, { evidence: { uncategorized_text: 'losing_evidence' } })).toMatchObject({ status: 'under_review' });
      expect(await stripe.disputes.retrieve(submitted.id)).toMatchObject({ status: 'lost', balance_transactions: [{ amount: -2500, fee: 1500 }] });
      expect(await stripe.disputes.close(accepted.id)).toMatchObject({ status: 'lost', balance_transactions: [{ amount: -2600, fee: 1500 }] });
      expect(await platformBalance()).toBe(withdrawn);
      await expect(stripe.disputes.update(submitted.id, { evidence: { uncategorized_text: 'winning_evidence' } })).rejects.toMatchObject({ statusCode: 400 });

      // Other evidence leaves it with the bank, and submitted evidence cannot be changed.
      expect(await stripe.disputes.update(reviewed.id, { evidence: { product_description: 'A 30-minute dog walk' } })).toMatchObject({ status: 'under_review' });
      expect(await stripe.disputes.retrieve(reviewed.id)).toMatchObject({ status: 'under_review', evidence: { product_description: 'A 30-minute dog walk' } });
      await expect(stripe.disputes.update(reviewed.id, { evidence: { uncategorized_text: 'winning_evidence' } })).rejects.toMatchObject({ statusCode: 400, param: 'evidence' });
      expect(await stripe.disputes.update(reviewed.id, { metadata: { job_id: 'job-3' } })).toMatchObject({ status: 'under_review', metadata: { job_id: 'job-3' } });

      // Evidence files need Stripe's file uploads, which the simulator has not; unknown fields are Stripe's error.
      const fresh = simulator.disputeCharge(String((await paidIntent(1000)).latest_charge));
      await expect(stripe.disputes.update(fresh.id, { evidence: { receipt: 'file_123' } })).rejects.toMatchObject({ statusCode: 400, param: 'evidence[receipt]' });
      await expect(stripe.disputes.update(fresh.id, { evidence: { nonsense: 'x' } as Stripe.DisputeUpdateParams.Evidence })).rejects.toMatchObject({
        message: 'Received unknown parameter: evidence[nonsense]',
        param: 'evidence[nonsense]',
      });
      await expect(stripe.disputes.retrieve('dp_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });

      await simulator.idle();
      expect(eventTypes(submitted.id)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.updated', 'charge.dispute.closed']);
      expect(eventTypes(accepted.id)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.closed']);
      expect(eventTypes(reviewed.id)).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.updated', 'charge.dispute.updated']);
    });

    it('refuses to refund a charge while its dispute is open, and once it is lost', async () => {
      const paid = await disputedPayment(2000);
      const chargeId = String(paid.latest_charge);
      const refused = { type: 'StripeInvalidRequestError', statusCode: 400, code: 'charge_disputed', message: `Charge ${chargeId} has been charged back; cannot issue a refund.` };
      await expect(stripe.refunds.create({ payment_intent: paid.id })).rejects.toMatchObject(refused);
      const [dispute] = (await stripe.disputes.list({ payment_intent: paid.id })).data;
      await stripe.disputes.close(dispute!.id);
      await expect(stripe.refunds.create({ charge: chargeId, amount: 100 })).rejects.toMatchObject(refused);
      expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 0, refunded: false });
      expect((await stripe.refunds.list({ charge: chargeId })).data).toEqual([]);
    });

    it('lists disputes newest first, paged, by charge, payment intent and creation time', async () => {
      const first = simulator.disputeCharge(String((await paidIntent(1000)).latest_charge));
      const secondIntent = await paidIntent(1100);
      const second = simulator.disputeCharge(String(secondIntent.latest_charge));
      const third = simulator.disputeCharge(String((await paidIntent(1200)).latest_charge));

      const page = await stripe.disputes.list({ limit: 2 });
      expect({ ids: page.data.map((item) => item.id), hasMore: page.has_more }).toEqual({ ids: [third.id, second.id], hasMore: true });
      expect((await stripe.disputes.list({ limit: 1, starting_after: second.id })).data.map((item) => item.id)).toEqual([first.id]);
      expect((await stripe.disputes.list({ charge: second.charge })).data.map((item) => item.id)).toEqual([second.id]);
      expect((await stripe.disputes.list({ payment_intent: secondIntent.id })).data.map((item) => item.id)).toEqual([second.id]);
      expect((await stripe.disputes.list({ created: { gte: third.created + 1 } })).data).toEqual([]);
      expect((await stripe.disputes.list({ created: { gte: first.created }, limit: 100 })).data.map((item) => item.id)).toEqual(expect.arrayContaining([first.id, second.id, third.id]));
      const expanded = await stripe.disputes.list({ payment_intent: secondIntent.id, expand: ['data.charge'] });
      expect(expanded.data[0]?.charge).toMatchObject({ object: 'charge', id: second.charge, amount: 1100 });
      await expect(stripe.disputes.list({ limit: 0 })).rejects.toMatchObject({ param: 'limit' });
    });
  });

  describe('idempotency', () => {
    it('replays the stored answer for a repeated key and refuses the key with other parameters', async () => {
      const worker = await onboardedAccount();
      await paidIntent(5000);
      const params = { amount: 700, currency: 'usd', destination: worker.id, transfer_group: 'job_replay' };
      const first = await stripe.transfers.create(params, { idempotencyKey: 'release-job_replay' });
      const again = await stripe.transfers.create(params, { idempotencyKey: 'release-job_replay' });
      expect(again).toEqual(first);
      expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');

      const mismatch = stripe.transfers.create({ ...params, amount: 701 }, { idempotencyKey: 'release-job_replay' });
      await expect(mismatch).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      await expect(mismatch).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('same parameters') });
      expect((await stripe.transfers.list({ transfer_group: 'job_replay' })).data).toHaveLength(1);
    });

    it('executes twenty concurrent requests with one key exactly once', async () => {
      const worker = await onboardedAccount();
      await paidIntent(5000);
      const release = () => stripe.transfers.create({ amount: 900, currency: 'usd', destination: worker.id, transfer_group: 'job_race' }, { idempotencyKey: 'release-job_race' });
      const results = await Promise.all(Array.from({ length: 20 }, release));
      expect(new Set(results.map((transfer) => transfer.id)).size).toBe(1);
      expect(results.filter((transfer) => transfer.lastResponse.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
      const listed = await stripe.transfers.list({ transfer_group: 'job_race' });
      expect(listed.data.map((transfer) => transfer.id)).toEqual([results[0]?.id]);
      await simulator.idle();
      expect(receiver.eventsAbout(listed.data[0]?.id ?? '', 'transfer.created')).toHaveLength(1);
    });

    it('replays errors too, but not a refused parameter', async () => {
      const worker = await onboardedAccount();
      const available = (await stripe.balance.retrieve()).available[0]?.amount ?? 0;
      const tooMuch = { amount: available + 100, currency: 'usd', destination: worker.id };
      await expect(stripe.transfers.create(tooMuch, { idempotencyKey: 'too-much' })).rejects.toMatchObject({ code: 'balance_insufficient' });
      await paidIntent(5000);
      // The balance now suffices, but a key's first answer stands for 24 hours, as on Stripe.
      await expect(stripe.transfers.create(tooMuch, { idempotencyKey: 'too-much' })).rejects.toMatchObject({
        code: 'balance_insufficient',
        headers: expect.objectContaining({ 'idempotent-replayed': 'true' }),
      });

      await expect(stripe.transfers.create({ amount: 100, destination: worker.id } as Stripe.TransferCreateParams, { idempotencyKey: 'fixed-later' })).rejects.toMatchObject({
        code: 'parameter_missing',
        param: 'currency',
      });
      expect(await stripe.transfers.create({ amount: 100, currency: 'usd', destination: worker.id }, { idempotencyKey: 'fixed-later' })).toMatchObject({ amount: 100 });
    });
  });

  describe('webhooks', () => {
    it('signs deliveries as Stripe does, so tampering fails verification', async () => {
      const intent = await createIntent(1234);
      await simulator.idle();
      const [delivery] = receiver.attempts.filter(({ payload }) => payload.includes(intent.id));
      expect(delivery?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const payload = delivery?.payload ?? '';
      const signature = delivery?.signature ?? '';
      expect(Stripe.webhooks.constructEvent(payload, signature, KEYS.webhookSecret).id).toBe(delivery?.event?.id);
      expect(() => Stripe.webhooks.constructEvent(payload.replace('1234', '9999'), signature, KEYS.webhookSecret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
      expect(() => Stripe.webhooks.constructEvent(payload, signature, 'whsec_someone_else')).toThrow(Stripe.errors.StripeSignatureVerificationError);

      const event = await stripe.events.retrieve(delivery?.event?.id ?? '');
      expect(event).toMatchObject({ object: 'event', type: 'payment_intent.created', livemode: false, pending_webhooks: 1, api_version: Stripe.API_VERSION });
      expect(event.request).toMatchObject({ id: expect.stringMatching(/^req_/), idempotency_key: expect.stringMatching(/^stripe-node-retry-/) });
      expect(simulator.events().at(-1)?.id).toBe(event.id);
    });

    it('retries a delivery the endpoint refused', async () => {
      receiver.refuseNext(1);
      const intent = await createIntent();
      await simulator.idle();
      const attempts = receiver.attempts.filter(({ payload }) => payload.includes(intent.id));
      expect(attempts.map(({ status }) => status)).toEqual([500, 200]);
      expect(receiver.eventsAbout(intent.id)).toHaveLength(1);
    });

    it('delivers duplicates and shuffled batches on request, and redelivers', async () => {
      simulator.setDelivery({ copies: 3, shuffle: true });
      const paid = await paidIntent();
      await simulator.idle();
      const created = receiver.eventsAbout(paid.id, 'payment_intent.created');
      const succeeded = receiver.eventsAbout(paid.id, 'payment_intent.succeeded');
      expect(created).toHaveLength(3);
      expect(new Set(created.map((event) => event.id)).size).toBe(1);
      expect(succeeded).toHaveLength(3);
      expect(receiver.eventsAbout(String(paid.latest_charge), 'charge.succeeded')).toHaveLength(3);

      simulator.setDelivery({ copies: 1 });
      await simulator.redeliver(succeeded[0]?.id ?? '');
      expect(receiver.eventsAbout(paid.id, 'payment_intent.succeeded')).toHaveLength(4);
      await expect(simulator.redeliver('evt_missing')).rejects.toThrow("No such event: 'evt_missing'");
    });

    it('holds deliveries while asked (a lost webhook), then delivers the held events in creation order', async () => {
      simulator.holdDeliveries();
      const paid = await paidIntent(1500);
      const dispute = simulator.disputeCharge(String(paid.latest_charge));
      const worker = await onboardedAccount();
      await simulator.idle();
      expect({ account: receiver.attempts, connect: connectReceiver.attempts }).toEqual({ account: [], connect: [] });
      // Recorded all the same, as on Stripe.
      expect(simulator.events().slice(-6).map((event) => event.type)).toEqual([
        'payment_intent.created',
        'charge.succeeded',
        'payment_intent.succeeded',
        'charge.dispute.created',
        'charge.dispute.funds_withdrawn',
        'account.updated',
      ]);

      const released = simulator.releaseDeliveries();
      expect(released.map((event) => event.type)).toEqual(simulator.events().slice(-6).map((event) => event.type));
      await simulator.idle();
      expect(receiver.attempts.map(({ event }) => event?.id)).toEqual(released.filter((event) => !event.account).map((event) => event.id));
      expect(connectReceiver.attempts.map(({ event }) => event?.id)).toEqual(released.filter((event) => event.account === worker.id).map((event) => event.id));
      expect(receiver.eventsAbout(dispute.id, 'charge.dispute.created')).toHaveLength(1);

      // Released, events go out as they happen again.
      expect(simulator.releaseDeliveries()).toEqual([]);
      const later = await createIntent();
      await simulator.idle();
      expect(receiver.eventsAbout(later.id, 'payment_intent.created')).toHaveLength(1);
    });

    // Last of the file's tests on this simulator: its events from here on carry a later date.
    it('keeps events and their delivery attempts for 30 days, as Stripe does, then lets them go (a dev server holds a month at most)', async () => {
      const eventAbout = (id: string) => simulator.events().find((event) => (event.data.object as { id?: string }).id === id);
      const early = await createIntent();
      await simulator.idle();
      const old = eventAbout(early.id)!;
      expect(simulator.deliveryAttempts().account.map((attempt) => attempt.eventId)).toContain(old.id);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 31 * 86_400_000);
        const later = await createIntent();
        await simulator.idle();
        const recent = eventAbout(later.id)!;
        expect(eventAbout(early.id)).toBeUndefined();
        await expect(stripe.events.retrieve(old.id)).rejects.toMatchObject({ statusCode: 404 });
        expect(await stripe.events.retrieve(recent.id)).toMatchObject({ id: recent.id });
        const attempted = simulator.deliveryAttempts().account.map((attempt) => attempt.eventId);
        expect(attempted).not.toContain(old.id);
        expect(attempted).toContain(recent.id);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it('keeps its state in the state file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-simulator-'));
    const stateFile = join(dir, 'stripe.json');
    try {
      const first = await startStripeSimulator({ port: 0, ...KEYS, stateFile });
      const client = clientFor(first);
      const account = await client.accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } });
      const intent = await client.paymentIntents.create({ amount: 5000, currency: 'usd' }, { idempotencyKey: 'persisted-intent' });
      await client.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
      await first.close();

      const second = await startStripeSimulator({ port: 0, ...KEYS, stateFile });
      const restarted = clientFor(second);
      expect(await restarted.accounts.retrieve(account.id)).toMatchObject({ id: account.id, capabilities: { transfers: 'inactive' } });
      expect(await restarted.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'succeeded' });
      const replayed = await restarted.paymentIntents.create({ amount: 5000, currency: 'usd' }, { idempotencyKey: 'persisted-intent' });
      expect(replayed.id).toBe(intent.id);
      expect(second.events().map((event) => event.type)).toEqual(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded']);
      expect((await restarted.balance.retrieve()).available[0]?.amount).toBe(5000 - 175);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('keeps disputes in the state file, and reads one written before disputes as having none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-simulator-'));
    const stateFile = join(dir, 'stripe.json');
    const olderFile = join(dir, 'older.json');
    const pay = (client: Stripe, paymentMethod: string) =>
      client.paymentIntents.create({ amount: 5000, currency: 'usd', payment_method: paymentMethod, confirm: true, automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
    try {
      const first = await startStripeSimulator({ port: 0, ...KEYS, stateFile });
      const disputed = await pay(clientFor(first), 'pm_card_createDispute');
      await first.close();
      const second = await startStripeSimulator({ port: 0, ...KEYS, stateFile });
      const restarted = clientFor(second);
      expect((await restarted.disputes.list({ payment_intent: disputed.id })).data).toMatchObject([{ status: 'needs_response', amount: 5000 }]);
      expect(await restarted.charges.retrieve(String(disputed.latest_charge))).toMatchObject({ disputed: true });
      expect((await restarted.balance.retrieve()).available[0]?.amount).toBe(5000 - 175 - 6500);
      await second.close();

      // A state file from before disputes: no `disputes`, charges without `disputed`.
      const before = await startStripeSimulator({ port: 0, ...KEYS, stateFile: olderFile });
      const paid = await pay(clientFor(before), 'pm_card_visa');
      await before.close();
      const state = JSON.parse(readFileSync(olderFile, 'utf8')) as { disputes?: unknown; charges: Record<string, { disputed?: boolean }> };
      delete state.disputes;
      for (const charge of Object.values(state.charges)) delete charge.disputed;
      writeFileSync(olderFile, JSON.stringify(state));
      const upgraded = await startStripeSimulator({ port: 0, ...KEYS, stateFile: olderFile });
      const client = clientFor(upgraded);
      expect((await client.disputes.list()).data).toEqual([]);
      expect(await client.charges.retrieve(String(paid.latest_charge))).toMatchObject({ disputed: false });
      expect(upgraded.disputeCharge(String(paid.latest_charge))).toMatchObject({ status: 'needs_response' });
      await upgraded.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("local Stripe simulator: rolling keys as the dashboard's 'Roll key' and 'Roll secret' do", () => {
  const clientFor = (simulator: StripeSimulator, key: string) => new Stripe(key, { host: '127.0.0.1', port: simulator.port, protocol: 'http', maxNetworkRetries: 0 });

  it('accepts the old secret key and the rolled one until the old expires, then refuses the old as Stripe does (401)', async () => {
    const simulator = await startStripeSimulator({ port: 0, ...KEYS });
    try {
      const rolled = simulator.rollSecretKey();
      expect(rolled).toMatch(/^sk_test_/);
      expect((await clientFor(simulator, KEYS.secretKey).balance.retrieve()).object).toBe('balance');
      expect((await clientFor(simulator, rolled).balance.retrieve()).object).toBe('balance');
      simulator.expireSecretKey(KEYS.secretKey);
      await expect(clientFor(simulator, KEYS.secretKey).balance.retrieve()).rejects.toMatchObject({
        type: 'StripeAuthenticationError',
        statusCode: 401,
        message: expect.stringContaining('Invalid API Key provided: sk_test_') as unknown,
      });
      expect((await clientFor(simulator, rolled).balance.retrieve()).object).toBe('balance');
      // The one key left cannot expire: the account always has a secret key.
      expect(() => simulator.expireSecretKey(rolled)).toThrow();
    } finally {
      await simulator.close();
    }
  });

  it('signs each delivery with the rolled secret and the old one until the old expires, then with the rolled one only', async () => {
    const verifiesWith = (attempt: DeliveryAttempt, secret: string) => {
      try {
        return Stripe.webhooks.constructEvent(attempt.payload, attempt.signature, secret).id !== undefined;
      } catch {
        return false;
      }
    };
    const oldEndpoint = await startWebhookReceiver(KEYS.webhookSecret);
    const simulator = await startStripeSimulator({ port: 0, ...KEYS, webhookUrl: oldEndpoint.url });
    try {
      const stripe = clientFor(simulator, KEYS.secretKey);
      const rolled = simulator.rollWebhookSecret('account');
      expect(rolled).toMatch(/^whsec_/);
      await stripe.customers.create({ email: 'during-overlap@example.com' });
      await simulator.idle();
      expect(oldEndpoint.attempts.map(({ status }) => status)).toEqual([200]);
      const [duringOverlap] = oldEndpoint.attempts;
      expect(duringOverlap!.signature.match(/v1=/g)).toHaveLength(2);
      expect(verifiesWith(duringOverlap!, rolled)).toBe(true);

      simulator.expireWebhookSecret('account', KEYS.webhookSecret);
      const newEndpoint = await startWebhookReceiver(rolled);
      try {
        simulator.setWebhookUrl(newEndpoint.url);
        await stripe.customers.create({ email: 'after-expiry@example.com' });
        await simulator.idle();
        expect(newEndpoint.attempts.map(({ status }) => status)).toEqual([200]);
        const [afterExpiry] = newEndpoint.attempts;
        expect(afterExpiry!.signature.match(/v1=/g)).toHaveLength(1);
        expect(verifiesWith(afterExpiry!, KEYS.webhookSecret)).toBe(false);
      } finally {
        await newEndpoint.close();
      }
      // Every attempt, as the simulator recorded it: both accepted at once.
      expect(simulator.deliveryAttempts().account.map(({ type, status }) => ({ type, status }))).toEqual([
        { type: 'customer.created', status: 200 },
        { type: 'customer.created', status: 200 },
      ]);
      expect(() => simulator.expireWebhookSecret('account', rolled)).toThrow();
    } finally {
      await simulator.close();
      await oldEndpoint.close();
    }
  });
});
