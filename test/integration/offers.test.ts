import { beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, Application, ApplicationsOfJob, CardStepAnswer, JobDetail, JobSummary } from '../../shared/api.js';
import type { JobLedger } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatCents, quotePrice } from '../../shared/money.js';
import { OFFER_TEXTS } from '../../shared/offers.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import { createReadyUser, jobForm } from '../support/job-lifecycle.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { TEST_CARDS, ledgerAgreeingWithStripe, postPaidJob, settle, stripeOf } from '../support/payments.js';

/**
 * Offers (issue 45): a job open to offers takes applications with an amount; the worker changes
 * or withdraws theirs while it waits, the poster counters once, and Accept Offer assigns the job
 * at the offer's price, the difference refunded through the money process. Races between the
 * parties' steps end with one winner and a clear refusal; the ledger equals Stripe after each.
 */
describe('offers: made, changed, countered and accepted, the money following the price', { timeout: 120_000 }, () => {
  const stack = useLocalStack({ autoReleaseSeconds: 600 });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });

  const BUDGET = 10_000;
  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const offer = (worker: TestUser, job: { id: string }, body: object) => call<Application>(worker, 'POST', `/jobs/${job.id}/applications`, body);
  const accept = (poster: TestUser, job: { id: string }, worker: TestUser, amount?: number) =>
    call<JobSummary>(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, amount === undefined ? {} : { amount });
  const counter = (poster: TestUser, job: { id: string }, worker: TestUser, amount: number) => call<Application>(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/counter`, { amount });
  const answer = (worker: TestUser, job: { id: string }, reply: 'accept' | 'decline') => call<Application>(worker, 'POST', `/jobs/${job.id}/applications/mine/counter`, { answer: reply });
  const change = (worker: TestUser, job: { id: string }, amount: number) => call<Application>(worker, 'PUT', `/jobs/${job.id}/applications/mine`, { amount, message: 'Changed my mind' });
  const withdraw = (worker: TestUser, job: { id: string }) => call(worker, 'DELETE', `/jobs/${job.id}/applications/mine`);
  const applicants = async (poster: TestUser, job: { id: string }) => (await call<ApplicationsOfJob>(poster, 'GET', `/jobs/${job.id}/applications`)).body;
  const jobOf = async (user: TestUser, job: { id: string }) => (await call<JobDetail>(user, 'GET', `/jobs/${job.id}`)).body;
  const notices = async (user: TestUser, job: { id: string }) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items.filter((note) => note.jobId === job.id);
  const ledgerOf = async (job: { id: string }) => (await call<JobLedger>(admin, 'GET', `/admin/jobs/${job.id}/ledger`)).body;
  /** Every cent in the ledger, none out beyond what came in, the escrow holding `held`, and Stripe agreeing. */
  async function expectMoneyWhole(job: { id: string }, held: number) {
    const ledger = await ledgerAgreeingWithStripe(stack(), admin, job);
    expect(ledger.position.escrow).toBe(held);
    return ledger;
  }

  async function offersJob(title: string) {
    const poster = await createReadyUser(stack(), 'poster');
    const job = await postPaidJob(stack(), poster, { ...jobForm, title, payment: BUDGET, openToOffers: true });
    expect(job).toMatchObject({ openToOffers: true, payment: BUDGET, postedAmount: quotePrice(BUDGET).postedAmount });
    return { poster, job };
  }

  it('takes offers within the budget, lets the worker change and withdraw theirs, and tells the poster each time', async () => {
    const { poster, job } = await offersJob('Paint a shed, offers');
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);

    // An offer needs an amount within the limits (above the budget too); a fixed-price job takes none.
    expect(await offer(ana, job, { message: 'Hi' })).toEqual({ status: 400, body: { error: OFFER_TEXTS.amountRequired } });
    expect((await offer(ana, job, { amount: 100_001 })).status).toBe(400);
    expect((await offer(ana, job, { amount: 0 })).status).toBe(400);
    const fixed = await postPaidJob(stack(), poster, { ...jobForm, title: 'A fixed-price job' });
    expect(await offer(ana, fixed, { amount: 4000 })).toEqual({ status: 400, body: { error: OFFER_TEXTS.notOpenToOffers } });

    const made = await offer(ana, job, { amount: 8000, availability: 'Saturday morning', message: 'I have the paint.' });
    expect(made).toMatchObject({ status: 201, body: { amount: 8000, availability: 'Saturday morning', counter: null, status: 'pending' } });
    expect((await offer(ben, job, { amount: 9500 })).status).toBe(201);
    const listed = await applicants(poster, job);
    expect(listed.items.map(({ application }) => application.amount).sort()).toEqual([8000, 9500]);
    // Beside each offer, the worker's success rate: none yet for workers with no job.
    expect(listed.items.map(({ successRate }) => successRate)).toEqual([null, null]);
    expect((await notices(poster, job)).filter((note) => note.type === 'offer_received')).toHaveLength(2);

    expect((await change(ana, job, 7000)).body).toMatchObject({ amount: 7000, message: 'Changed my mind' });
    expect((await change(ana, job, 100_001)).status).toBe(400);
    expect(await withdraw(ben, job)).toMatchObject({ status: 204 });
    expect((await jobOf(poster, job)).pendingApplications).toBe(1);
    const changes = (await notices(poster, job)).filter((note) => note.type === 'offer_changed').map((note) => note.title);
    expect(changes.sort()).toEqual([OFFER_TEXTS.changedTitle, OFFER_TEXTS.withdrawnTitle]);
    // Withdrawn, it is gone: nothing left to change or withdraw, and the worker may offer again.
    expect(await withdraw(ben, job)).toEqual({ status: 404, body: { error: MSG.applications.notFound } });
    expect((await offer(ben, job, { amount: 9000 })).status).toBe(201);
  });

  it('accepts an offer under the budget: assigned at its price, the difference refunded once, the worker paid the offer on release', async () => {
    const { poster, job } = await offersJob('Fix a gate, offers');
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: 6000 });
    await offer(ben, job, { amount: 9000 });

    // The poster confirmed another amount than the offer's now: refused, nothing moved.
    expect(await accept(poster, job, ana, 5000)).toEqual({ status: 409, body: { error: OFFER_TEXTS.offerChangedSinceShown } });
    const accepted = await accept(poster, job, ana, 6000);
    expect(accepted.status).toBe(200);
    const price = quotePrice(6000);
    const refund = quotePrice(BUDGET).postedAmount - price.postedAmount;
    expect(accepted.body).toMatchObject({ status: 'assigned', workerId: ana.userId, payment: 6000, platformFee: price.platformFee, postedAmount: price.postedAmount });

    await settle(stack());
    expect(await jobOf(poster, job)).toMatchObject({ status: 'assigned', moneyState: 'held', payment: 6000 });
    const intent = (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
    const refunds = (await stripeOf(stack()).refunds.list({ payment_intent: intent })).data;
    expect(refunds.map((made) => made.amount)).toEqual([refund]);
    await expectMoneyWhole(job, price.postedAmount);
    expect((await notices(ana, job)).map((note) => note.type)).toContain('offer_accepted');
    expect((await notices(ben, job)).map((note) => note.type)).toContain('offer_declined');
    expect((await notices(poster, job)).find((note) => note.title === OFFER_TEXTS.refundedTitle)?.message).toBe(OFFER_TEXTS.refundedMessage(formatCents(refund), job.title));

    // The worker's pay on release is the offer; the platform keeps the fee on it.
    expect((await call(ana, 'POST', `/jobs/${job.id}/complete`, {})).status).toBe(200);
    // Her success rate, as a poster choosing among her next offers sees it: one job, completed.
    const next = await offersJob('Another gate, offers');
    await offer(ana, next.job, { amount: 5000 });
    expect((await applicants(next.poster, next.job)).items[0]).toMatchObject({ successRate: 100 });
    expect((await call<JobSummary>(poster, 'POST', `/jobs/${job.id}/release-payment`, {})).body.status).toBe('paid');
    const transfers = (await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data;
    expect(transfers.map((transfer) => transfer.amount)).toEqual([6000]);
    const ledger = await expectMoneyWhole(job, 0);
    expect(ledger.position).toMatchObject({ moneyIn: quotePrice(BUDGET).postedAmount, moneyOut: refund + 6000, platformFee: price.platformFee });
  });

  it('lets the poster counter once; the worker accepts or declines, and the accepted counter is what Accept Offer takes', async () => {
    const { poster, job } = await offersJob('Trim a hedge, offers');
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: 9000 });
    await offer(ben, job, { amount: 9900 });

    expect(await counter(poster, job, ana, 9000)).toEqual({ status: 400, body: { error: OFFER_TEXTS.counterSameAmount } });
    expect((await counter(poster, job, ana, 7500)).body).toMatchObject({ counter: { amount: 7500, status: 'pending' } });
    expect(await counter(poster, job, ana, 7000)).toEqual({ status: 409, body: { error: OFFER_TEXTS.counterAlreadyMade } });
    // While the counter waits the worker answers it before changing their offer.
    expect(await change(ana, job, 8500)).toEqual({ status: 409, body: { error: OFFER_TEXTS.counterWaiting } });
    expect((await notices(ana, job)).map((note) => note.type)).toContain('counter_offer');

    expect((await counter(poster, job, ben, 9000)).status).toBe(200);
    expect((await answer(ben, job, 'decline')).body).toMatchObject({ amount: 9900, counter: { amount: 9000, status: 'declined' } });
    expect(await answer(ben, job, 'accept')).toEqual({ status: 409, body: { error: OFFER_TEXTS.noCounter } });

    expect((await answer(ana, job, 'accept')).body).toMatchObject({ amount: 7500, counter: { amount: 7500, status: 'accepted' } });
    expect((await notices(poster, job)).filter((note) => note.type === 'counter_answered').map((note) => note.title).sort()).toEqual([
      OFFER_TEXTS.counterAcceptedTitle,
      OFFER_TEXTS.counterDeclinedTitle,
    ]);
    // The poster's screen still showed 9000: refused; at the counter's amount, accepted.
    expect(await accept(poster, job, ana, 9000)).toEqual({ status: 409, body: { error: OFFER_TEXTS.offerChangedSinceShown } });
    expect((await accept(poster, job, ana, 7500)).body).toMatchObject({ status: 'assigned', payment: 7500 });
    await expectMoneyWhole(job, quotePrice(7500).postedAmount);
  });

  it('lets one of two racing accepts win, refuses an accept racing a withdrawal or a counter-offer answered, and keeps the money whole', async () => {
    const { poster, job } = await offersJob('Move a sofa, offers');
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: 7000 });
    await offer(ben, job, { amount: 8000 });
    const both = await Promise.all([accept(poster, job, ana, 7000), accept(poster, job, ben, 8000)]);
    expect(both.map((answered) => answered.status).sort()).toEqual([200, 409]);
    expect(both.find((answered) => answered.status === 409)?.body.error).toBe(MSG.applications.workerAlreadyAccepted);
    const winner = both[0]!.status === 200 ? 7000 : 8000;
    await expectMoneyWhole(job, quotePrice(winner).postedAmount);
    const intent = (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
    expect((await stripeOf(stack()).refunds.list({ payment_intent: intent })).data).toHaveLength(1);

    // An accept racing the worker's withdrawal: either the withdrawal is refused (assigned) or the accept (gone).
    const second = await offersJob('Hang a mirror, offers');
    await offer(ana, second.job, { amount: 5000 });
    const [accepted, withdrawn] = await Promise.all([accept(second.poster, second.job, ana, 5000), withdraw(ana, second.job)]);
    expect([accepted.status, withdrawn.status].sort()).toEqual(accepted.status === 200 ? [200, 409] : [204, 404]);
    const after = await jobOf(second.poster, second.job);
    expect(after.status).toBe(accepted.status === 200 ? 'assigned' : 'open');
    await expectMoneyWhole(second.job, accepted.status === 200 ? quotePrice(5000).postedAmount : quotePrice(BUDGET).postedAmount);

    // An accept racing the worker's acceptance of a counter-offer: the accept names the old amount, so one of them is refused.
    const third = await offersJob('Clean a garage, offers');
    await offer(ben, third.job, { amount: 9000 });
    await counter(third.poster, third.job, ben, 8000);
    const [taken, answered] = await Promise.all([accept(third.poster, third.job, ben, 9000), answer(ben, third.job, 'accept')]);
    expect([taken.status, answered.status].sort()).toEqual([200, 409]);
    const settled = await jobOf(third.poster, third.job);
    expect(settled).toMatchObject({ status: taken.status === 200 ? 'assigned' : 'open', payment: taken.status === 200 ? 9000 : BUDGET });
    await expectMoneyWhole(third.job, quotePrice(taken.status === 200 ? 9000 : BUDGET).postedAmount);
  });

  it('with Stripe down, Accept Offer answers 503 and freezes the offers until the retry schedule refunds the difference and assigns the job once', async () => {
    const { poster, job } = await offersJob('Wash the windows, offers');
    const [ana, ben, cleo] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: 7000 });
    await offer(ben, job, { amount: 8000 });
    stack().faults.set('stripe', 'down');
    try {
      expect((await accept(poster, job, ana, 7000)).status).toBe(503);
      expect(await jobOf(poster, job)).toMatchObject({ status: 'open', moneyState: 'repricing', payment: BUDGET });
      // While the difference's refund waits, the offers stand as they are: none is added, changed, withdrawn or accepted.
      expect(await offer(cleo, job, { amount: 6000 })).toEqual({ status: 409, body: { error: MSG.applications.notAvailable } });
      expect(await change(ben, job, 7500)).toEqual({ status: 409, body: { error: MSG.payments.moneyDecisionUnderWay } });
      expect(await withdraw(ana, job)).toEqual({ status: 409, body: { error: MSG.payments.moneyDecisionUnderWay } });
      expect(await accept(poster, job, ben, 8000)).toEqual({ status: 409, body: { error: MSG.applications.workerAlreadyAccepted } });
      expect(await counter(poster, job, ben, 7500)).toEqual({ status: 409, body: { error: MSG.payments.moneyDecisionUnderWay } });
    } finally {
      stack().faults.clear();
    }
    const run = await stack().functions.invoke(recurringScheduleName('moneyDecisions'), RECURRING_SCHEDULES.moneyDecisions, { retryAfterSeconds: 0 });
    expect(run).toMatchObject({ settled: 1, stillPending: 0 });
    expect(await jobOf(poster, job)).toMatchObject({ status: 'assigned', workerId: ana.userId, moneyState: 'held', payment: 7000 });
    expect((await notices(ben, job)).map((note) => note.type)).toContain('offer_declined');
    await expectMoneyWhole(job, quotePrice(7000).postedAmount);
  });

  it("takes in a refund made in Stripe's dashboard while an accepted offer's refund waits: the refund's webhook finishes the offer first, then lowers what is held", async () => {
    const { poster, job } = await offersJob('Clear the attic, offers');
    const ana = await createReadyUser(stack(), 'worker');
    await offer(ana, job, { amount: 7000 });
    stack().faults.set('stripe', 'down');
    try {
      expect((await accept(poster, job, ana, 7000)).status).toBe(503);
    } finally {
      stack().faults.clear();
    }
    const intent = (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
    await stripeOf(stack()).refunds.create({ payment_intent: intent, amount: 1000 });
    await settle(stack());
    // No retry schedule ran: the webhook's handler carried the offer's decision out rather than
    // wait for it on the bus's few redeliveries (after which the dashboard's refund was lost).
    expect(await jobOf(poster, job)).toMatchObject({ status: 'assigned', workerId: ana.userId, moneyState: 'held', payment: 7000 });
    const ledger = await expectMoneyWhole(job, quotePrice(7000).postedAmount - 1000);
    expect(ledger.movements.filter((move) => move.kind === 'refund').map((move) => move.amount).sort((a, b) => a - b)).toEqual([1000, quotePrice(BUDGET).postedAmount - quotePrice(7000).postedAmount]);
  });

  it('accepts an offer at the budget without moving money, and refuses offers once the job is assigned', async () => {
    const { poster, job } = await offersJob('Assemble a desk, offers');
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: BUDGET });
    expect((await accept(poster, job, ana, BUDGET)).body).toMatchObject({ status: 'assigned', payment: BUDGET, moneyState: 'held' });
    expect(await offer(ben, job, { amount: 5000 })).toEqual({ status: 409, body: { error: MSG.applications.notAvailable } });
    expect(await counter(poster, job, ana, 9000)).toEqual({ status: 409, body: { error: MSG.jobs.statusChanged } });
    await expectMoneyWhole(job, quotePrice(BUDGET).postedAmount);
  });

  it('accepts an offer above the budget once the difference is charged to the saved card, through the card step where the bank asks', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const job = await postPaidJob(stack(), poster, { ...jobForm, title: 'Strip wallpaper, above the budget', payment: BUDGET, openToOffers: true });
    const [ana, ben] = await Promise.all([createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    await offer(ana, job, { amount: 12_000, message: 'Three rooms, not two' });
    await offer(ben, job, { amount: 9000 });
    const accepted = await accept(poster, job, ana, 12_000);
    const price = quotePrice(12_000);
    expect(accepted).toMatchObject({ status: 200, body: { status: 'assigned', workerId: ana.userId, payment: 12_000, postedAmount: price.postedAmount } });
    expect((await notices(ben, job)).map((note) => note.type)).toContain('offer_declined');
    const charged = price.postedAmount - quotePrice(BUDGET).postedAmount;
    expect((await notices(poster, job)).find((note) => note.title === OFFER_TEXTS.chargedTitle)?.message).toBe(OFFER_TEXTS.chargedMessage(formatCents(charged), job.title));
    await expectMoneyWhole(job, price.postedAmount);

    // A card whose bank asks for the card step: nothing charged or assigned until it is done.
    const second = await postPaidJob(stack(), poster, { ...jobForm, title: 'Hang a door, above the budget', payment: BUDGET, openToOffers: true }, TEST_CARDS.alwaysAuthenticates);
    await offer(ana, second, { amount: 11_000 });
    const cardStep = await accept(poster, second, ana, 11_000);
    expect(cardStep).toMatchObject({ status: 200, body: { status: 'card_needed', message: OFFER_TEXTS.cardNeeded } });
    expect(await jobOf(poster, second)).toMatchObject({ status: 'open', moneyState: 'held', payment: BUDGET });
    const intentId = (cardStep.body as unknown as CardStepAnswer).payment.paymentIntentId;
    await stripeOf(stack()).paymentIntents.confirm(intentId, { payment_method: TEST_CARDS.succeeds });
    // Stripe's webhook of the charge finishes the acceptance the card step confirmed.
    await settle(stack());
    expect(await jobOf(poster, second)).toMatchObject({ status: 'assigned', workerId: ana.userId, payment: 11_000 });
    await expectMoneyWhole(second, quotePrice(11_000).postedAmount);
  });
});
