import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, Earnings, JobDetail, JobPaymentStart, JobSummary, PartyJob, PaymentRecord, ReversalPreview, TipAnswer } from '../../shared/api.js';
import { jobInvariantProblems, type JobLedger } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import type { InstantPayoutAvailability } from '../../shared/payouts.js';
import type { ReconciliationResult } from '../../functions/money/reconciliation.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { keys, timeOrdered } from '../../functions/table.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import { createReadyUser, jobForm } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { TEST_CARDS, postPaidJob, settle, stripeOf } from '../support/payments.js';

/**
 * Money at its edges (issue 43): a move of the product's whose Stripe call comes after a moment
 * where another could change the guard (a tip's card step, a draft's card step, a reversal after
 * a cash-out), and the moves Stripe makes on its own (a refund in its dashboard, a chargeback).
 * Each tried as a new user would, through the API and the Stripe simulator; after each, no job
 * pays out more than it took in but for what the ledger records as the platform's loss, and the
 * ledger agrees with Stripe.
 */
describe('money at its edges: every Stripe call after its decision, every move Stripe makes taken in', { timeout: 180_000 }, () => {
  const stack = useLocalStack({ autoReleaseSeconds: 600 });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const ok = async <T>(promise: Promise<{ status: number; body: T }>) => {
    const response = await promise;
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  };
  const jobOf = async (job: { id: string }, user: TestUser) => (await call<JobDetail>(user, 'GET', `/jobs/${job.id}`)).body;
  const ledgerOf = async (job: { id: string }) => (await call<JobLedger>(admin, 'GET', `/admin/jobs/${job.id}/ledger`)).body;
  const intentOf = async (job: { id: string }) => (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
  const chargeOf = async (job: { id: string }) => String((await stripeOf(stack()).paymentIntents.retrieve(await intentOf(job))).latest_charge);
  const transfersOf = async (job: { id: string }) => (await stripeOf(stack()).transfers.list({ transfer_group: job.id, limit: 100 })).data;
  const notices = async (user: TestUser, job?: { id: string }) =>
    (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items.filter((note) => !job || note.jobId === job.id || note.metadata.jobId === job.id);
  const tip = (poster: TestUser, job: { id: string }, amount: number) => call<TipAnswer>(poster, 'POST', `/jobs/${job.id}/tip`, { amount });
  const paymentRow = async (paymentIntentId: string) =>
    (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.payment(paymentIntentId), ConsistentRead: true }))).Item as PaymentRecord | undefined;
  const reconcile = () => stack().functions.invoke(recurringScheduleName('reconciliation'), RECURRING_SCHEDULES.reconciliation, { graceSeconds: 0, since: new Date(Date.now() - 3_600_000).toISOString() }) as Promise<ReconciliationResult>;

  /** The ledger's invariants and Stripe's side of them: balanced, the escrow never below zero, no more out than in but for the recorded loss. */
  async function expectMoneyWhole(job: { id: string }, loss = 0) {
    const ledger = await ledgerOf(job);
    expect(jobInvariantProblems(job.id, ledger.movements)).toEqual([]);
    expect(Object.values(ledger.balances).reduce((sum, balance) => sum + balance, 0)).toBe(0);
    expect(ledger.position.loss).toBe(loss);
    return ledger;
  }

  /** A job through to the stage asked, paid with `card`. */
  async function jobAt(stage: 'open' | 'assigned' | 'completed' | 'paid', title: string, card: string = TEST_CARDS.succeeds) {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postPaidJob(stack(), poster, { ...jobForm, title }, card);
    if (stage !== 'open') {
      await ok(call(worker, 'POST', `/jobs/${job.id}/applications`, {}));
      await ok(call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`));
    }
    if (stage === 'completed' || stage === 'paid') await ok(call(worker, 'POST', `/jobs/${job.id}/complete`));
    if (stage === 'paid') await ok(call(poster, 'POST', `/jobs/${job.id}/release-payment`));
    await settle(stack());
    return { poster, worker, job };
  }

  /** A tip the bank wants the poster to confirm: its PaymentIntent, waiting for the card step. */
  async function tipAwaitingCardStep(poster: TestUser, job: JobSummary) {
    const started = await tip(poster, job, 1000);
    expect(started.body).toMatchObject({ status: 'card_needed' });
    return (started.body as Extract<TipAnswer, { status: 'card_needed' }>).payment.paymentIntentId;
  }

  /** What became of a tip's money at Stripe: charged, transferred, refunded. */
  async function tipAtStripe(job: JobSummary, paymentIntentId: string) {
    const intent = await stripeOf(stack()).paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
    const charge = intent.latest_charge as { amount: number; amount_refunded: number } | null;
    const tipTransfers = (await transfersOf(job)).filter((transfer) => transfer.metadata.tip === 'true');
    return { charged: charge?.amount ?? 0, refunded: charge?.amount_refunded ?? 0, transferred: tipTransfers.reduce((sum, transfer) => sum + transfer.amount, 0) };
  }

  it('refunds a tip whose card step finishes after the admin reversed the release, with every cent in the ledger', async () => {
    const { poster, worker, job } = await jobAt('paid', 'Tipped after a reversal', TEST_CARDS.alwaysAuthenticates);
    const tipIntent = await tipAwaitingCardStep(poster, job);
    const paymentId = await intentOf(job);
    const preview = await ok(call<ReversalPreview>(admin, 'GET', `/admin/payments/${paymentId}/reversal`));
    expect(preview).toMatchObject({ workerId: worker.userId, transferred: job.payment, recoverable: job.payment, unrecoverable: 0 });
    await ok(call(admin, 'POST', `/admin/payments/${paymentId}/refund`, { reason: 'Work never done', reverse: { workerId: worker.userId, amount: job.payment, recover: preview.recoverable } }));
    await settle(stack());

    // The poster finishes the card step afterwards: Stripe charges the tip, and the process refunds it.
    await stripeOf(stack()).paymentIntents.confirm(tipIntent, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    expect(await tip(poster, job, 1000)).toMatchObject({ status: 409, body: { error: MSG.tips.refundedInstead } });
    expect(await tipAtStripe(job, tipIntent)).toEqual({ charged: 1000, refunded: 1000, transferred: 0 });
    expect(await paymentRow(tipIntent)).toMatchObject({ kind: 'tip', status: 'refunded', refundReason: MSG.tips.refundedPaymentReversed });
    expect((await notices(poster, job)).map((note) => note.message)).toContain(MSG.tips.refundedMessage('10.00', job.title, MSG.tips.refundedPaymentReversed));
    expect((await jobOf(job, poster)).tip).toBeUndefined();
    const ledger = await expectMoneyWhole(job);
    expect(ledger.movements.filter((move) => move.kind.startsWith('tip_')).map((move) => [move.kind, move.amount])).toEqual(expect.arrayContaining([['tip_charge', 1000], ['tip_refund', 1000]]));
    expect((await reconcile()).differences.filter((difference) => difference.jobId === job.id)).toEqual([]);
  });

  it('refunds a tip whose card step finishes after the worker deleted their account, which the tip waiting for the poster did not hold up', async () => {
    const { poster, worker, job } = await jobAt('paid', 'Tipped after the worker left', TEST_CARDS.alwaysAuthenticates);
    const tipIntent = await tipAwaitingCardStep(poster, job);
    expect((await call(worker, 'POST', '/me/deletion', { password: worker.password })).status).toBe(200);
    await stripeOf(stack()).paymentIntents.confirm(tipIntent, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    expect(await tipAtStripe(job, tipIntent)).toEqual({ charged: 1000, refunded: 1000, transferred: 0 });
    expect((await notices(poster, job)).map((note) => note.message)).toContain(MSG.tips.refundedMessage('10.00', job.title, MSG.tips.refundedWorkerLeft));
    await expectMoneyWhole(job);
  });

  it('refuses an account deletion while a cash-out of theirs is on its way, and lets it through once Stripe finished it', async () => {
    const { worker } = await jobAt('paid', 'Cashed out during an outage');
    const { cashOut } = await ok(call<InstantPayoutAvailability>(worker, 'GET', '/me/payouts/instant'));
    stack().faults.set('stripe', 'down');
    const request = { amount: cashOut!.amount, idempotencyKey: 'cash-out-outage-1' };
    expect((await call(worker, 'POST', '/me/payouts/instant', request)).status).toBe(503);
    stack().faults.clear();
    expect(await call(worker, 'POST', '/me/deletion', { password: worker.password })).toMatchObject({ status: 409, body: { error: MSG.accountDeletion.moneyPending } });
    // The same request again carries the payout out; Stripe reports it paid.
    expect(await ok(call(worker, 'POST', '/me/payouts/instant', request))).toMatchObject({ amount: cashOut!.amount });
    await settle(stack());
    expect((await call(worker, 'POST', '/me/deletion', { password: worker.password })).status).toBe(200);
  });

  it("takes a partial refund made in Stripe's dashboard into the held money: the release pays only what remains after the fee", async () => {
    const { poster, worker, job } = await jobAt('completed', 'Partly refunded in the dashboard');
    await stripeOf(stack()).refunds.create({ payment_intent: await intentOf(job), amount: 2000 });
    await settle(stack());
    expect(await jobOf(job, poster)).toMatchObject({ status: 'completed', moneyState: 'held', refundedWhileHeld: 2000 });
    expect((await notices(poster, job)).map((note) => note.type)).toContain('payment_refunded');

    const released = await ok(call<JobSummary>(poster, 'POST', `/jobs/${job.id}/release-payment`));
    expect(released).toMatchObject({ status: 'paid' });
    await settle(stack());
    const remains = job.postedAmount - 2000 - job.platformFee;
    expect((await transfersOf(job)).map((transfer) => transfer.amount)).toEqual([remains]);
    expect((await jobOf(job, worker)).transferredAmount).toBe(remains);
    const ledger = await expectMoneyWhole(job);
    expect(ledger.position).toMatchObject({ moneyIn: job.postedAmount, moneyOut: 2000 + remains, escrow: 0, platformFee: job.platformFee });
    const earnings = await ok(call<Earnings>(worker, 'GET', '/me/earnings'));
    expect(earnings.totalEarned).toBe(remains);
    expect((await reconcile()).differences.filter((difference) => difference.jobId === job.id)).toEqual([]);
  });

  it("splits only what a dashboard refund left, and settles the split (never stuck 'splitting')", async () => {
    const { worker, job } = await jobAt('completed', 'Split after a dashboard refund');
    const { id: disputeId } = await ok(call<{ id: string }>(worker, 'POST', `/jobs/${job.id}/dispute`, { type: 'payment', description: 'Half the work was paid back already.' }));
    await stripeOf(stack()).refunds.create({ payment_intent: await intentOf(job), amount: 2000 });
    await settle(stack());
    const held = job.postedAmount - 2000;
    const tooMuch = await call(admin, 'POST', `/admin/disputes/${disputeId}/resolve`, { resolution: 'Split', money: { decision: 'split', toWorker: held } });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: MSG.disputes.splitAmountInvalid((held / 100).toFixed(2)) } });
    await ok(call(admin, 'POST', `/admin/disputes/${disputeId}/resolve`, { resolution: 'Split', money: { decision: 'split', toWorker: 3000 } }));
    await settle(stack());
    expect(await jobOf(job, worker)).toMatchObject({ status: 'paid', moneyState: 'split', splitToWorker: 3000, splitRefunded: held - 3000 });
    const ledger = await expectMoneyWhole(job);
    expect(ledger.position).toMatchObject({ moneyOut: job.postedAmount, escrow: 0 });
  });

  it("records a dashboard refund after the worker was paid as the platform's loss, which reconciliation reports", async () => {
    const { job } = await jobAt('paid', 'Refunded in the dashboard after release');
    const refund = await stripeOf(stack()).refunds.create({ payment_intent: await intentOf(job), amount: job.postedAmount });
    await settle(stack());
    // The escrow was empty after the release (the transfer and the platform's fee left it): all of it is lost.
    await expectMoneyWhole(job, job.postedAmount);
    const result = await reconcile();
    expect(result.differences.filter((difference) => difference.jobId === job.id)).toEqual([]);
    expect(result.losses).toContainEqual(expect.objectContaining({ jobId: job.id, amount: job.postedAmount, kind: 'platform_loss', movementId: `platform_loss:${refund.id}` }));
    // The admin is told: the escrow lacked it all (the fee left with the release too).
    expect((await notices(admin)).map((note) => note.message)).toContain(MSG.payments.refundBeyondEscrow(job.title, (job.postedAmount / 100).toFixed(2), (job.postedAmount / 100).toFixed(2)));
  });

  it("cancels an unpaid draft's PaymentIntent when its poster deletes it, so the card step can no longer charge", async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const draft = await ok(call<JobPaymentStart>(poster, 'POST', '/jobs', jobForm));
    expect((await call(poster, 'DELETE', `/jobs/${draft.job.id}`)).status).toBe(204);
    expect(await stripeOf(stack()).paymentIntents.retrieve(draft.payment.paymentIntentId)).toMatchObject({ status: 'canceled' });
    await expect(stripeOf(stack()).paymentIntents.confirm(draft.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds })).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    expect(await call(poster, 'POST', '/payments/confirm', { paymentIntentId: draft.payment.paymentIntentId })).toMatchObject({ status: 409 });
  });

  it('refunds and records a payment that succeeds for a draft already gone, and tells the poster', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const draft = await ok(call<JobPaymentStart>(poster, 'POST', '/jobs', { ...jobForm, title: 'Gone before paid' }));
    // The draft's item is gone without its payment voided (DynamoDB's TTL backstop, an older deployment).
    await tableClient(stack()).send(new DeleteCommand({ TableName: stack().tableName, Key: keys.job(draft.job.id) }));
    await stripeOf(stack()).paymentIntents.confirm(draft.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds });
    expect(await call(poster, 'POST', '/payments/confirm', { paymentIntentId: draft.payment.paymentIntentId })).toMatchObject({ status: 409, body: { error: MSG.payments.draftGoneRefunded } });
    await settle(stack());
    const intent = await stripeOf(stack()).paymentIntents.retrieve(draft.payment.paymentIntentId, { expand: ['latest_charge'] });
    expect(intent.latest_charge).toMatchObject({ amount: draft.payment.amount, amount_refunded: draft.payment.amount });
    expect((await stripeOf(stack()).refunds.list({ payment_intent: draft.payment.paymentIntentId })).data).toHaveLength(1);
    expect(await paymentRow(draft.payment.paymentIntentId)).toMatchObject({ status: 'refunded', amount: draft.payment.amount, refundedAmount: draft.payment.amount });
    const ledger = await expectMoneyWhole(draft.job);
    expect(ledger.position).toMatchObject({ moneyIn: draft.payment.amount, moneyOut: draft.payment.amount, escrow: 0 });
    expect((await notices(poster)).map((note) => note.message)).toContain(MSG.payments.draftRefunded('Gone before paid', (draft.payment.amount / 100).toFixed(2)));
    expect((await reconcile()).differences.filter((difference) => difference.jobId === draft.job.id)).toEqual([]);
  });

  it("expires an unpaid draft a day old, cancelling its PaymentIntent, and cancels a deleted poster's drafts' payments", async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const old = await ok(call<JobPaymentStart>(poster, 'POST', '/jobs', { ...jobForm, title: 'A day-old draft' }));
    const kept = await ok(call<JobPaymentStart>(poster, 'POST', '/jobs', { ...jobForm, title: 'A fresh draft' }));
    const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await tableClient(stack()).send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.job(old.job.id), UpdateExpression: 'SET createdAt = :then, gsi1sk = :sk', ExpressionAttributeValues: { ':then': dayAgo, ':sk': timeOrdered(dayAgo, old.job.id) } }),
    );
    const run = await stack().functions.invoke(recurringScheduleName('moneyDecisions'), RECURRING_SCHEDULES.moneyDecisions, {});
    expect(run).toMatchObject({ expiredDrafts: 1 });
    expect((await call(poster, 'GET', `/jobs/${old.job.id}`)).status).toBe(404);
    expect(await stripeOf(stack()).paymentIntents.retrieve(old.payment.paymentIntentId)).toMatchObject({ status: 'canceled' });
    expect(await stripeOf(stack()).paymentIntents.retrieve(kept.payment.paymentIntentId)).toMatchObject({ status: 'requires_payment_method' });

    expect((await call(poster, 'POST', '/me/deletion', { password: poster.password })).status).toBe(200);
    expect(await stripeOf(stack()).paymentIntents.retrieve(kept.payment.paymentIntentId)).toMatchObject({ status: 'canceled' });
  });

  it("reverses a release after the worker cashed out: recovers what their balance holds, records the rest as the platform's loss and the worker's debt", async () => {
    const { poster, worker, job } = await jobAt('paid', 'Reversed after a cash-out');
    const { cashOut } = await ok(call<InstantPayoutAvailability>(worker, 'GET', '/me/payouts/instant'));
    await ok(call(worker, 'POST', '/me/payouts/instant', { amount: cashOut!.amount, idempotencyKey: 'cash-out-before-reversal' }));
    await settle(stack());
    // The payout and its fee are ledger movements: the worker's ledger balance is Stripe's.
    const payouts = (await queryIndex(stack(), 'GSI1', keys.ledgerLog())).filter((move) => move.scope === `worker:${worker.userId}`);
    expect(payouts.map((move) => [move.kind, move.amount])).toEqual(expect.arrayContaining([['payout', cashOut!.amount], ['payout_fee', cashOut!.fee]]));

    const paymentId = await intentOf(job);
    const preview = await ok(call<ReversalPreview>(admin, 'GET', `/admin/payments/${paymentId}/reversal`));
    const left = job.payment - cashOut!.amount - cashOut!.fee;
    expect(preview).toEqual({ jobId: job.id, workerId: worker.userId, workerName: expect.any(String), transferred: job.payment, recoverable: left, unrecoverable: job.payment - left, refund: job.postedAmount });

    // A confirmation of more than the balance holds (the console before the cash-out) is refused, and nothing moves.
    const stale = await call(admin, 'POST', `/admin/payments/${paymentId}/refund`, { reason: 'Work never done', reverse: { workerId: worker.userId, amount: job.payment, recover: job.payment } });
    expect(stale).toMatchObject({ status: 409, body: { error: MSG.payments.reversalBalanceChanged } });
    expect((await transfersOf(job))[0]!.amount_reversed).toBe(0);
    expect(await jobOf(job, poster)).toMatchObject({ status: 'paid', moneyState: 'released' });

    await ok(call(admin, 'POST', `/admin/payments/${paymentId}/refund`, { reason: 'Work never done', reverse: { workerId: worker.userId, amount: job.payment, recover: preview.recoverable } }));
    await settle(stack());
    expect((await transfersOf(job))[0]!.amount_reversed).toBe(left);
    const charge = (await stripeOf(stack()).paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] })).latest_charge as { amount_refunded: number };
    expect(charge.amount_refunded).toBe(job.postedAmount);
    expect(await jobOf(job, worker)).toMatchObject({ status: 'cancelled', moneyState: 'reversed', reversal: { recovered: left, unrecovered: job.payment - left } });
    await expectMoneyWhole(job, job.payment - left);
    // Told only what moved; the worker sees the debt on My Earnings.
    const workerNotice = (await notices(worker, job)).find((note) => note.type === 'payment_reversed');
    expect(workerNotice?.message).toBe(MSG.payments.reversedToWorker(job.title, (left / 100).toFixed(2), ((job.payment - left) / 100).toFixed(2), 'Work never done'));
    const earnings = await ok(call<Earnings>(worker, 'GET', '/me/earnings'));
    expect(earnings).toMatchObject({ owed: job.payment - left, reversedJobs: [expect.objectContaining({ id: job.id })] });
    const result = await reconcile();
    expect(result.differences.filter((difference) => difference.jobId === job.id || difference.workerId === worker.userId)).toEqual([]);
    expect(result.losses).toContainEqual(expect.objectContaining({ jobId: job.id, kind: 'unrecovered', amount: job.payment - left }));
  });

  it('freezes held money under a chargeback — no release, everyone told with the deadline — and holds it again when the bank decides for the platform', async () => {
    const { poster, worker, job } = await jobAt('completed', 'Disputed by the bank, then won');
    const dispute = stack().stripe.disputeCharge(await chargeOf(job));
    await settle(stack());
    const frozen = await jobOf(job, poster);
    expect(frozen).toMatchObject({ moneyState: 'frozen', chargeback: { status: 'open', amount: job.postedAmount, evidenceDueBy: expect.any(String) } });
    expect(frozen.autoReleaseAt).toBeUndefined();
    expect(await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).toMatchObject({ status: 409, body: { error: MSG.payments.frozenByChargeback } });
    expect((await call(admin, 'POST', `/admin/payments/${await intentOf(job)}/refund`, { reason: 'Refund it' })).status).toBe(409);
    for (const user of [poster, worker, admin]) expect((await notices(user, job)).map((note) => note.type)).toContain('chargeback');
    expect((await jobOf(job, admin)).chargeback).toMatchObject({ status: 'open' });
    await expectMoneyWhole(job);

    await stripeOf(stack()).disputes.update(dispute.id, { evidence: { uncategorized_text: 'winning_evidence' } });
    await settle(stack());
    expect(await jobOf(job, poster)).toMatchObject({ moneyState: 'held', chargeback: { status: 'won' }, autoReleaseAt: expect.any(String) });
    await ok(call(poster, 'POST', `/jobs/${job.id}/release-payment`));
    await settle(stack());
    const ledger = await expectMoneyWhole(job);
    expect(ledger.movements.map((move) => move.kind)).toEqual(expect.arrayContaining(['chargeback', 'chargeback_fee', 'chargeback_reversal', 'transfer']));
    expect((await reconcile()).differences.filter((difference) => difference.jobId === job.id)).toEqual([]);
  });

  it('cancels a job whose chargeback the bank decided for the cardholder, and records a chargeback after release as the platform’s loss', async () => {
    const { poster, worker, job } = await jobAt('assigned', 'Disputed by the bank, then lost');
    const dispute = stack().stripe.disputeCharge(await chargeOf(job));
    await settle(stack());
    await stripeOf(stack()).disputes.close(dispute.id);
    await settle(stack());
    expect(await jobOf(job, worker)).toMatchObject({ status: 'cancelled', moneyState: 'charged_back', chargeback: { status: 'lost' } });
    expect(await call(poster, 'POST', `/jobs/${job.id}/cancel`)).toMatchObject({ status: 409 });
    await expectMoneyWhole(job);

    const released = await jobAt('paid', 'Disputed by the bank after release');
    stack().stripe.disputeCharge(await chargeOf(released.job));
    await settle(stack());
    expect(await jobOf(released.job, released.worker)).toMatchObject({ status: 'paid', moneyState: 'released', chargeback: { status: 'open' } });
    await expectMoneyWhole(released.job, released.job.postedAmount);
    const result = await reconcile();
    expect(result.differences.filter((difference) => difference.jobId === released.job.id)).toEqual([]);
    expect(result.losses).toContainEqual(expect.objectContaining({ jobId: released.job.id, kind: 'platform_loss' }));
    expect((await call<PartyJob>(admin, 'GET', `/jobs/${released.job.id}`)).body.chargeback).toMatchObject({ status: 'open' });
  });
});
