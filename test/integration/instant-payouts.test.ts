import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { AppNotification } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import type { InstantPayout, InstantPayoutAvailability } from '../../shared/payouts.js';
import { keys } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import type { OnboardingFinish } from '../../infra/local/stripe-simulator/onboarding.js';
import { connectPaymentAccount, settle, stripeOf } from '../support/payments.js';

describe('instant payouts: a worker cashes out to a debit card that takes them, once per request', () => {
  const stack = useLocalStack();

  /** A worker whose Stripe account received `cents` by a transfer, paying out to a card with or without Instant Payouts (or whose payouts fail). */
  async function paidWorker(cents: number, finish: OnboardingFinish = 'complete'): Promise<{ worker: TestUser; accountId: string }> {
    const worker = await createUser(stack(), { role: 'worker' });
    await connectPaymentAccount(stack(), worker, finish);
    const stripe = stripeOf(stack());
    const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }));
    const accountId = Item!.stripeAccountId as string;
    const charge = await stripe.paymentIntents.create({ amount: cents, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
    await stripe.transfers.create({ amount: cents, currency: 'usd', destination: accountId, source_transaction: charge.latest_charge as string });
    return { worker, accountId };
  }

  const availability = (user: TestUser) => api<InstantPayoutAvailability>(stack(), 'GET', '/me/payouts/instant', { token: user.idToken });
  const cashOut = (user: TestUser, amount: number, idempotencyKey: string) => api<InstantPayout>(stack(), 'POST', '/me/payouts/instant', { token: user.idToken, body: { amount, idempotencyKey } });
  const instantBalance = async (accountId: string) => (await stripeOf(stack()).balance.retrieve({}, { stripeAccount: accountId })).instant_available?.[0]?.amount;

  it('pays out once for a request sent twice, moves the balance by the payout and its fee, and records both', async () => {
    const { worker, accountId } = await paidWorker(5000);
    const before = await availability(worker);
    expect(before).toEqual({ status: 200, body: { eligible: true, cardLast4: '5556', instantAvailable: 5000, cashOut: { amount: 4926, fee: 74 }, payouts: [] } });

    const key = 'cash-out-0001';
    const answers = await Promise.all([cashOut(worker, 4926, key), cashOut(worker, 4926, key)]);
    // Pending until Stripe's payout.paid, which may have come already.
    const answered = { requestKey: key, amount: 4926, fee: 74, status: expect.stringMatching(/^(pending|paid)$/), createdAt: expect.any(String) };
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [200, answered],
      [200, answered],
    ]);
    await settle(stack());
    expect(await cashOut(worker, 4926, key)).toMatchObject({ status: 200, body: { status: 'paid', fee: 74 } });
    const payouts = stack()
      .stripe.events()
      .filter((event) => event.type === 'payout.created' && event.account === accountId);
    expect(payouts).toHaveLength(1);
    expect(await instantBalance(accountId)).toBe(0);

    const after = await availability(worker);
    expect(after.body).toMatchObject({ instantAvailable: 0, cashOut: null, payouts: [{ requestKey: key, amount: 4926, fee: 74, status: 'paid' }] });
    const audit = (await queryIndex(stack(), 'GSI2', keys.adminActionsOfType('instant_payout'))).filter((entry) => entry.targetId === worker.userId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ details: { amount: 4926, fee: 74, requestKey: key, payoutId: expect.stringMatching(/^po_/) } });

    // Nothing left: another request is refused by Stripe's balance check, the same key with another amount by ours.
    expect(await cashOut(worker, 100, 'cash-out-0002')).toEqual({ status: 409, body: { error: MSG.payouts.overBalance } });
    expect(await cashOut(worker, 100, key)).toEqual({ status: 409, body: { error: MSG.payouts.otherAmountInProgress } });
  }, 120_000);

  it("records a payout that fails after Stripe took it with Stripe's reason, tells the worker once, and leaves the money cashable again", async () => {
    const { worker, accountId } = await paidWorker(2000, 'complete-failing-payouts');
    const { cashOut: offer, cardLast4 } = (await availability(worker)).body;
    expect({ cardLast4, offer }).toEqual({ cardLast4: '5572', offer: { amount: 1950, fee: 50 } });
    expect((await cashOut(worker, 1950, 'failing-0001')).status).toBe(200);
    await settle(stack());

    const [failed, ...more] = stack()
      .stripe.events()
      .filter((event) => event.type === 'payout.failed' && event.account === accountId);
    expect(more).toEqual([]);
    const reason = (failed!.data.object as Stripe.Payout).failure_message!;
    expect(reason.length).toBeGreaterThan(0);
    const after = (await availability(worker)).body;
    expect(after).toMatchObject({ instantAvailable: 2000, payouts: [{ requestKey: 'failing-0001', amount: 1950, status: 'failed', failureMessage: reason }] });
    const told = async () => (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken })).body.items.filter((n) => n.type === 'payout_failed');
    expect(await told()).toMatchObject([{ title: MSG.payouts.failedTitle, message: MSG.payouts.failedMessage(formatCents(1950), reason) }]);

    // Stripe sends it again (a retry, the dashboard's resend): nothing changes, nobody is told twice.
    await stack().stripe.redeliver(failed!.id);
    await settle(stack());
    expect(await told()).toHaveLength(1);
    expect((await availability(worker)).body.payouts).toEqual(after.payouts);
  }, 120_000);

  it('refuses a card without Instant Payouts, a poster, and malformed requests', async () => {
    const { worker, accountId } = await paidWorker(3000, 'complete-without-instant');
    expect(await availability(worker)).toEqual({ status: 200, body: { eligible: false, cardLast4: '8210', instantAvailable: 0, cashOut: null, payouts: [] } });
    expect(await cashOut(worker, 1000, 'no-instant-01')).toEqual({ status: 409, body: { error: MSG.payouts.notEligible } });
    expect((await stripeOf(stack()).balance.retrieve({}, { stripeAccount: accountId })).available[0]!.amount).toBe(3000);

    const poster = await createUser(stack(), { role: 'poster' });
    expect(await availability(poster)).toEqual({ status: 403, body: { error: MSG.payouts.onlyWorkers } });
    expect(await cashOut(poster, 1000, 'poster-key-01')).toEqual({ status: 403, body: { error: MSG.payouts.onlyWorkers } });

    const unconnected = await createUser(stack(), { role: 'worker' });
    expect(await availability(unconnected)).toEqual({ status: 409, body: { error: MSG.payouts.accountNeeded } });
    expect(await cashOut(worker, 0, 'zero-amount-01')).toMatchObject({ status: 400, body: { error: MSG.payouts.invalidAmount } });
    expect(await cashOut(worker, 1000, 'short')).toMatchObject({ status: 400, body: { error: MSG.payouts.invalidKey } });
  }, 120_000);
});
