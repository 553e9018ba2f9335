import { beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, JobDetail, PendingPriceChange, PriceChange, PriceChangeAnswer } from '../../shared/api.js';
import type { JobLedger } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatCents, quotePrice } from '../../shared/money.js';
import { PRICE_CHANGE_TEXTS } from '../../shared/price-changes.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import { createReadyUser, jobForm } from '../support/job-lifecycle.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { TEST_CARDS, ledgerAgreeingWithStripe, postPaidJob, settle, stripeOf } from '../support/payments.js';

/**
 * Price changes after assignment (issue 45, docs/decisions/0323): the assigned worker asks for
 * a new price with a reason, the poster approves (the difference refunded before the job takes
 * the price) or declines, the worker may withdraw; none once the job is completed, and the
 * release pays the agreed price. Each racing pair ends with one winner; the ledger equals Stripe.
 */
describe('price changes: asked, answered, and the money following the price', { timeout: 120_000 }, () => {
  const stack = useLocalStack({ autoReleaseSeconds: 600 });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });

  const PRICE = 10_000;
  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const ask = (worker: TestUser, job: { id: string }, amount: number, reason = 'The fence is shorter than described') =>
    call<PendingPriceChange>(worker, 'POST', `/jobs/${job.id}/price-change`, { amount, reason });
  const approve = (poster: TestUser, job: { id: string }, amount: number) => call<PriceChangeAnswer>(poster, 'POST', `/jobs/${job.id}/price-change/approve`, { amount });
  const decline = (poster: TestUser, job: { id: string }, reason?: string) => call(poster, 'POST', `/jobs/${job.id}/price-change/decline`, reason ? { reason } : {});
  const withdraw = (worker: TestUser, job: { id: string }) => call(worker, 'DELETE', `/jobs/${job.id}/price-change`);
  const history = async (user: TestUser, job: { id: string }) => call<{ items: PriceChange[] }>(user, 'GET', `/jobs/${job.id}/price-changes`);
  const jobOf = async (user: TestUser, job: { id: string }) => (await call<JobDetail>(user, 'GET', `/jobs/${job.id}`)).body;
  const notices = async (user: TestUser, job: { id: string }) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items.filter((note) => note.jobId === job.id);
  const ledgerOf = async (job: { id: string }) => (await call<JobLedger>(admin, 'GET', `/admin/jobs/${job.id}/ledger`)).body;
  const intentOf = async (job: { id: string }) => (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
  /** Every cent in the ledger, none out beyond what came in, the escrow holding `held`, and Stripe agreeing. */
  async function expectMoneyWhole(job: { id: string }, held: number) {
    const ledger = await ledgerAgreeingWithStripe(stack(), admin, job);
    expect(ledger.position.escrow).toBe(held);
    return ledger;
  }

  /** A paid fixed-price job assigned to a fresh worker. */
  async function assignedJob(title: string) {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postPaidJob(stack(), poster, { ...jobForm, title, payment: PRICE });
    expect((await call(worker, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);
    expect((await call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, {})).status).toBe(200);
    return { poster, worker, job };
  }

  it('lets the assigned worker ask for less with a reason, the poster approve the amount shown, and the release pay the new price', async () => {
    const { poster, worker, job } = await assignedJob('Mend a fence, price change');
    const stranger = await createReadyUser(stack(), 'worker');

    // Only the assigned worker, for another amount than the price and at most it, with a reason.
    expect(await ask(stranger, job, 8000)).toEqual({ status: 403, body: { error: PRICE_CHANGE_TEXTS.onlyAssignedWorker } });
    expect(await ask(worker, job, PRICE)).toEqual({ status: 400, body: { error: PRICE_CHANGE_TEXTS.sameAmount } });
    expect((await ask(worker, job, 100_001)).status).toBe(400);
    expect(await ask(worker, job, 8000, '   ')).toMatchObject({ status: 400, body: { error: PRICE_CHANGE_TEXTS.reasonRequired } });

    const asked = await ask(worker, job, 8000);
    expect(asked).toMatchObject({ status: 201, body: { amount: 8000, reason: 'The fence is shorter than described' } });
    expect(await ask(worker, job, 7000)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.alreadyRequested } });
    expect((await jobOf(poster, job)).priceChange).toMatchObject({ id: asked.body.id, amount: 8000 });
    expect((await notices(poster, job)).map((note) => note.type)).toContain('price_change_requested');
    // Nobody but the parties and the admin reads the history.
    expect((await history(stranger, job)).status).toBe(404);

    // The poster's screen showed another amount: refused. The amount shown: the difference refunded, then the new price.
    expect(await approve(poster, job, 7000)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.changedSinceShown } });
    expect(await approve(worker, job, 8000)).toEqual({ status: 403, body: { error: PRICE_CHANGE_TEXTS.onlyPoster } });
    const approved = await approve(poster, job, 8000);
    const newPrice = quotePrice(8000);
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', job: { status: 'assigned', moneyState: 'held', payment: 8000, platformFee: newPrice.platformFee, postedAmount: newPrice.postedAmount } } });
    expect(approved.body.status === 'approved' ? approved.body.job.priceChange : 'not approved').toBeUndefined();
    const refunded = quotePrice(PRICE).postedAmount - newPrice.postedAmount;
    expect((await notices(worker, job)).map((note) => note.type)).toContain('price_change_approved');
    expect((await notices(poster, job)).find((note) => note.type === 'payment_refunded')?.message).toBe(PRICE_CHANGE_TEXTS.refundedMessage(formatCents(refunded), job.title));
    await expectMoneyWhole(job, newPrice.postedAmount);
    expect((await stripeOf(stack()).refunds.list({ payment_intent: await intentOf(job) })).data.map((refund) => refund.amount)).toEqual([refunded]);

    for (const viewer of [poster, worker, admin]) {
      expect((await history(viewer, job)).body.items).toEqual([
        expect.objectContaining({ id: asked.body.id, from: PRICE, amount: 8000, status: 'approved', refunded, charged: null, declineReason: null }),
      ]);
    }

    // The release pays the agreed price; no price change once completed.
    expect((await call(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    expect(await ask(worker, job, 7000)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.onlyAssigned } });
    expect((await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).status).toBe(200);
    const paid = await expectMoneyWhole(job, 0);
    expect(paid.movements.find((move) => move.kind === 'transfer')?.amount).toBe(8000);
  });

  it('lets the poster decline with a reason and the worker withdraw; a request the job moved on from lapses', async () => {
    const { poster, worker, job } = await assignedJob('Trim a hedge, price change');
    const first = await ask(worker, job, 9000);
    expect(await decline(worker, job)).toEqual({ status: 403, body: { error: PRICE_CHANGE_TEXTS.onlyPoster } });
    expect((await decline(poster, job, 'We agreed on the price')).status).toBe(204);
    expect(await decline(poster, job)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.noRequest } });
    const declined = (await notices(worker, job)).find((note) => note.type === 'price_change_declined');
    expect(declined?.message).toBe(PRICE_CHANGE_TEXTS.declinedMessage(job.title, 'We agreed on the price'));

    const second = await ask(worker, job, 9500);
    expect((await withdraw(worker, job)).status).toBe(204);
    expect(await withdraw(worker, job)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.noRequest } });

    // A request still waiting when the worker completes lapses: the price is settled once the work is done.
    const third = await ask(worker, job, 9900);
    expect((await call(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    expect((await jobOf(poster, job)).priceChange).toBeUndefined();
    expect(await approve(poster, job, 9900)).toEqual({ status: 409, body: { error: PRICE_CHANGE_TEXTS.onlyAssigned } });
    // Declining the completion brings no old request back.
    expect((await call(poster, 'POST', `/jobs/${job.id}/decline-completion`, { reason: 'Not finished' })).status).toBe(200);
    expect((await jobOf(poster, job)).priceChange).toBeUndefined();

    expect((await history(admin, job)).body.items.map(({ id, status, declineReason }) => ({ id, status, declineReason }))).toEqual([
      { id: third.body.id, status: 'lapsed', declineReason: null },
      { id: second.body.id, status: 'withdrawn', declineReason: null },
      { id: first.body.id, status: 'declined', declineReason: 'We agreed on the price' },
    ]);
    await expectMoneyWhole(job, quotePrice(PRICE).postedAmount);
  });

  it('lets one of an approval and a withdrawal, a completion or an admin refund win, and keeps the money whole', async () => {
    // Approval racing the worker's withdrawal.
    const one = await assignedJob('Paint a door, approve or withdraw');
    await ask(one.worker, one.job, 6000);
    const [approved, withdrawn] = await Promise.all([approve(one.poster, one.job, 6000), withdraw(one.worker, one.job)]);
    // The approval lost: the request was withdrawn first (409), or approved as asked before it went.
    expect([approved.status, withdrawn.status].sort()).toEqual(approved.status === 200 ? [200, 409] : [204, 409]);
    const priceOne = approved.status === 200 ? 6000 : PRICE;
    expect(await jobOf(one.poster, one.job)).toMatchObject({ payment: priceOne, moneyState: 'held' });
    await expectMoneyWhole(one.job, quotePrice(priceOne).postedAmount);

    // Approval racing the worker's completion: approved first, the completion waits for nothing it cannot see.
    const two = await assignedJob('Fix a tap, approve or complete');
    await ask(two.worker, two.job, 7000);
    const [approvedTwo, completed] = await Promise.all([approve(two.poster, two.job, 7000), call(two.worker, 'POST', `/jobs/${two.job.id}/complete`)]);
    expect([approvedTwo.status, completed.status]).not.toEqual([409, 409]);
    const after = await jobOf(two.poster, two.job);
    expect(after.status).toBe(completed.status === 200 ? 'completed' : 'assigned');
    expect(after.payment).toBe(approvedTwo.status === 200 ? 7000 : PRICE);
    await expectMoneyWhole(two.job, quotePrice(after.payment).postedAmount);

    // Approval racing the admin's refund of the job: one decides the money.
    const three = await assignedJob('Hang shelves, approve or refund');
    await ask(three.worker, three.job, 5000);
    const paymentId = await intentOf(three.job);
    const [approvedThree, refunded] = await Promise.all([approve(three.poster, three.job, 5000), call(admin, 'POST', `/admin/payments/${paymentId}/refund`, { reason: 'Customer asked' })]);
    expect([approvedThree.status, refunded.status]).toContain(200);
    await settle(stack());
    const final = await jobOf(three.poster, three.job);
    if (final.status === 'cancelled') {
      await expectMoneyWhole(three.job, 0);
    } else {
      expect(refunded.status).toBe(409);
      await expectMoneyWhole(three.job, quotePrice(5000).postedAmount);
    }
  });

  it('with Stripe down, approving answers 503 and holds the job until the retry schedule refunds the difference and changes the price once', async () => {
    const { poster, worker, job } = await assignedJob('Wash a car, price change');
    await ask(worker, job, 6500);
    stack().faults.set('stripe', 'down');
    try {
      expect((await approve(poster, job, 6500)).status).toBe(503);
      expect(await jobOf(poster, job)).toMatchObject({ status: 'assigned', moneyState: 'repricing', payment: PRICE });
      // Nothing else moves the job while the difference's refund waits.
      expect(await call(worker, 'POST', `/jobs/${job.id}/complete`)).toMatchObject({ status: 404 });
      expect(await withdraw(worker, job)).toEqual({ status: 409, body: { error: MSG.payments.moneyDecisionUnderWay } });
      expect(await approve(poster, job, 6500)).toEqual({ status: 409, body: { error: MSG.payments.moneyDecisionUnderWay } });
    } finally {
      stack().faults.clear();
    }
    const run = await stack().functions.invoke(recurringScheduleName('moneyDecisions'), RECURRING_SCHEDULES.moneyDecisions, { retryAfterSeconds: 0 });
    expect(run).toMatchObject({ settled: 1, stillPending: 0 });
    expect(await jobOf(poster, job)).toMatchObject({ status: 'assigned', moneyState: 'held', payment: 6500 });
    expect((await history(worker, job)).body.items[0]).toMatchObject({ status: 'approved', amount: 6500 });
    await expectMoneyWhole(job, quotePrice(6500).postedAmount);
  });

  /** A paid job assigned to a fresh worker, paid with `card`: the card a higher price's difference is charged to. */
  async function assignedJobPaidWith(title: string, card: string) {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postPaidJob(stack(), poster, { ...jobForm, title, payment: PRICE }, card);
    expect((await call(worker, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);
    expect((await call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, {})).status).toBe(200);
    return { poster, worker, job };
  }
  /** The job's charges at Stripe, oldest first: its payment and each top-up (found by their metadata). */
  async function chargesAtStripe(job: { id: string }) {
    const stripe = stripeOf(stack());
    const payment = await intentOf(job);
    const topUps = stack()
      .stripe.events()
      .filter((event) => event.type === 'payment_intent.succeeded' && (event.data.object as { metadata: Record<string, string> }).metadata.topUpForJob === job.id)
      .map((event) => (event.data.object as { id: string }).id);
    return Promise.all([payment, ...new Set(topUps)].map(async (id) => (await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] })).latest_charge as { id: string; amount: number; amount_refunded: number }));
  }

  it('charges a higher price\'s difference to the saved card before the job takes it; the release then transfers from each charge, and a refund refunds each', async () => {
    const { poster, worker, job } = await assignedJobPaidWith('Tile a bathroom, raised', TEST_CARDS.succeeds);
    expect((await ask(worker, job, 12_000, 'The wall behind the tub needs tiling too')).status).toBe(201);
    const approved = await approve(poster, job, 12_000);
    const price = quotePrice(12_000);
    const difference = price.postedAmount - quotePrice(PRICE).postedAmount;
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', job: { payment: 12_000, postedAmount: price.postedAmount, moneyState: 'held' } } });
    expect((await notices(poster, job)).find((note) => note.title === PRICE_CHANGE_TEXTS.chargedTitle)?.message).toBe(PRICE_CHANGE_TEXTS.chargedMessage(formatCents(difference), job.title));
    expect((await history(admin, job)).body.items[0]).toMatchObject({ status: 'approved', charged: difference, refunded: null });
    await expectMoneyWhole(job, price.postedAmount);
    expect((await chargesAtStripe(job)).map((charge) => charge.amount)).toEqual([quotePrice(PRICE).postedAmount, difference]);

    // Lowered again: the top-up is refunded first (the newest charge).
    expect((await ask(worker, job, 11_500, 'The tub wall was smaller')).status).toBe(201);
    expect((await approve(poster, job, 11_500)).status).toBe(200);
    const lowered = quotePrice(11_500);
    await expectMoneyWhole(job, lowered.postedAmount);
    expect((await chargesAtStripe(job)).map((charge) => charge.amount_refunded)).toEqual([0, price.postedAmount - lowered.postedAmount]);

    // The release pays the agreed price from both charges, each within what is left of it.
    expect((await call(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    expect((await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).status).toBe(200);
    const transfers = (await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data;
    expect(transfers.reduce((sum, transfer) => sum + transfer.amount, 0)).toBe(11_500);
    // The payment's charge funds what it can, the top-up the rest.
    expect(transfers.map((transfer) => transfer.amount).sort((a, b) => b - a)).toEqual([quotePrice(PRICE).postedAmount, 11_500 - quotePrice(PRICE).postedAmount]);
    const paid = await expectMoneyWhole(job, 0);
    expect(paid.position.platformFee).toBe(lowered.platformFee);

    // Another raised job, cancelled by the admin: both charges refunded in full.
    const second = await assignedJobPaidWith('Grout a kitchen, raised then refunded', TEST_CARDS.succeeds);
    await ask(second.worker, second.job, 13_000);
    expect((await approve(second.poster, second.job, 13_000)).status).toBe(200);
    expect((await call(admin, 'POST', `/admin/payments/${await intentOf(second.job)}/refund`, { reason: 'Customer asked' })).status).toBe(200);
    await expectMoneyWhole(second.job, 0);
    expect((await chargesAtStripe(second.job)).every((charge) => charge.amount_refunded === charge.amount)).toBe(true);
  });

  it("sends the poster to the card step when their bank asks, finishes the approval once it is done, and refunds a charge whose job moved on", async () => {
    const { poster, worker, job } = await assignedJobPaidWith('Paint a hallway, card step', TEST_CARDS.alwaysAuthenticates);
    await ask(worker, job, 12_000, 'Two coats are needed');
    const first = await approve(poster, job, 12_000);
    expect(first).toMatchObject({ status: 200, body: { status: 'card_needed', message: PRICE_CHANGE_TEXTS.cardNeeded } });
    const intentId = first.body.status === 'card_needed' ? first.body.payment.paymentIntentId : '';
    // Nothing charged yet: the job at its old price, the request waiting with its charge.
    expect(await jobOf(poster, job)).toMatchObject({ payment: PRICE, moneyState: 'held', priceChange: { topUpIntentId: intentId } });
    // Approved again before the card step: the same charge, not another.
    const again = await approve(poster, job, 12_000);
    expect(again.body.status === 'card_needed' && again.body.payment.paymentIntentId).toBe(intentId);

    // The card step done, Stripe's webhook finishes the approval; the poster's own approval after it answers as done.
    await stripeOf(stack()).paymentIntents.confirm(intentId, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    expect(await jobOf(poster, job)).toMatchObject({ payment: 12_000, moneyState: 'held' });
    expect((await approve(poster, job, 12_000)).body).toMatchObject({ status: 'approved', job: { payment: 12_000 } });
    await expectMoneyWhole(job, quotePrice(12_000).postedAmount);

    // A card step finished after the request was withdrawn: that charge goes back in full.
    const late = await assignedJobPaidWith('Paint a garage door, card step late', TEST_CARDS.alwaysAuthenticates);
    await ask(late.worker, late.job, 12_000);
    const waiting = await approve(late.poster, late.job, 12_000);
    const lateIntent = waiting.body.status === 'card_needed' ? waiting.body.payment.paymentIntentId : '';
    expect((await withdraw(late.worker, late.job)).status).toBe(204);
    await stripeOf(stack()).paymentIntents.confirm(lateIntent, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    expect(await jobOf(late.poster, late.job)).toMatchObject({ payment: PRICE, moneyState: 'held' });
    const [, topUp] = await chargesAtStripe(late.job);
    expect(topUp).toMatchObject({ amount_refunded: topUp!.amount });
    await expectMoneyWhole(late.job, quotePrice(PRICE).postedAmount);
  });

  it('refunds what the other charges hold when the bank keeps a top-up in a chargeback', async () => {
    const { poster, worker, job } = await assignedJobPaidWith('Sand a floor, chargeback', TEST_CARDS.succeeds);
    await ask(worker, job, 14_000);
    expect((await approve(poster, job, 14_000)).status).toBe(200);
    const [, topUp] = await chargesAtStripe(job);
    stack().stripe.disputeCharge(topUp!.id);
    await settle(stack());
    expect(await jobOf(poster, job)).toMatchObject({ moneyState: 'frozen' });
    const stripe = stripeOf(stack());
    const [dispute] = (await stripe.disputes.list({ charge: topUp!.id })).data;
    await stripe.disputes.close(dispute!.id);
    await settle(stack());
    expect(await jobOf(poster, job)).toMatchObject({ status: 'cancelled', moneyState: 'refunded', chargeback: { status: 'lost' } });
    const [payment] = await chargesAtStripe(job);
    expect(payment!.amount_refunded).toBe(payment!.amount);
    await expectMoneyWhole(job, 0);
  });
});
