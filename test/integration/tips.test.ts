import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, Earnings, JobSummary, PartyJob, TipAnswer } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import type { MoneyOverview } from '../../shared/money.js';
import { keys } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createReadyUser, jobForm, setJobStatus } from '../support/job-lifecycle.js';
import { TEST_CARDS, postPaidJob, settle, stripeOf } from '../support/payments.js';

describe('tips: charged once to the saved card, transferred to the worker in full', () => {
  const stack = useLocalStack();

  /** A job posted and paid with `card`, completed by a connected worker and released by its poster. */
  async function releasedJob(card: string = TEST_CARDS.succeeds): Promise<{ poster: TestUser; worker: TestUser; job: JobSummary }> {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const open = await postPaidJob(stack(), poster, { ...jobForm, payment: 5000 }, card);
    await setJobStatus(stack(), open, 'completed', worker.userId);
    const released = await api<JobSummary>(stack(), 'POST', `/jobs/${open.id}/release-payment`, { token: poster.idToken, body: {} });
    expect(released.body.status).toBe('paid');
    return { poster, worker, job: released.body };
  }

  const tip = (user: TestUser, jobId: string, amount: number) => api<TipAnswer>(stack(), 'POST', `/jobs/${jobId}/tip`, { token: user.idToken, body: { amount } });

  const tipIntentsCreated = (jobId: string) =>
    stack()
      .stripe.events()
      .filter((event) => event.type === 'payment_intent.created' && (event.data.object as { metadata: Record<string, string> }).metadata.tipForJob === jobId);

  const overview = async (admin: TestUser) => (await api<MoneyOverview>(stack(), 'GET', '/admin/payments/overview?kind=day', { token: admin.idToken })).body;

  it('charges a tip submitted twice at once one time, transfers it whole, and shows it on both sides and to the admin', async () => {
    const admin = await createUser(stack(), { role: 'admin' });
    const { poster, worker, job } = await releasedJob();
    const before = await overview(admin);

    const answers = await Promise.all([tip(poster, job.id, 750), tip(poster, job.id, 750)]);
    await settle(stack());
    expect(answers.map((answer) => [answer.status, answer.body.status])).toEqual([
      [200, 'paid'],
      [200, 'paid'],
    ]);
    expect(tipIntentsCreated(job.id)).toHaveLength(1);
    const transfers = (await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data;
    expect(transfers.filter((transfer) => transfer.metadata.tip === 'true').map((transfer) => transfer.amount)).toEqual([750]);
    expect(transfers).toHaveLength(2);

    // Sent again: the same amount is answered as done (nothing charged), another is refused.
    expect((await tip(poster, job.id, 750)).body).toMatchObject({ status: 'paid', job: { tip: 750 } });
    expect(await tip(poster, job.id, 500)).toEqual({ status: 409, body: { error: MSG.tips.alreadyTipped } });
    expect(tipIntentsCreated(job.id)).toHaveLength(1);

    const partyJob = await api<PartyJob>(stack(), 'GET', `/jobs/${job.id}`, { token: poster.idToken });
    expect(partyJob.body).toMatchObject({ tip: 750, tippedAt: expect.any(String), releasedAt: expect.any(String) });
    const earnings = await api<Earnings>(stack(), 'GET', '/me/earnings', { token: worker.idToken });
    expect(earnings.body).toMatchObject({ totalEarned: 5750, totalTips: 750 });
    expect(earnings.body.paidJobs[0]).toMatchObject({ id: job.id, tip: 750 });
    const notifications = await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken });
    expect(notifications.body.items.filter((n) => n.title === MSG.tips.receivedTitle)).toHaveLength(1);

    const rows = (await queryIndex(stack(), 'GSI1', keys.paymentsLog())).filter((row) => row.jobId === job.id && row.kind === 'tip');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 750, platformFee: 0, workerId: worker.userId, status: 'succeeded', transferId: expect.stringMatching(/^tr_/) });
    const after = await overview(admin);
    expect(after.tips - before.tips).toBe(750);
    expect(after.cardFees - before.cardFees).toBe(rows[0]!.stripeFee);
    // A tip went to the worker whole: it is not refundable from the console.
    expect(await api(stack(), 'POST', `/admin/payments/${rows[0]!.id}/refund`, { token: admin.idToken, body: { reason: 'Poster asked for it back' } })).toEqual({
      status: 409,
      body: { error: MSG.tips.notRefundable },
    });
  }, 120_000);

  it('refuses a tip from anyone but the poster, before release, after 7 days, and outside the limits', async () => {
    const { poster, worker, job } = await releasedJob();
    expect(await tip(worker, job.id, 500)).toEqual({ status: 403, body: { error: MSG.tips.onlyPoster } });
    expect(await tip(poster, job.id, 49)).toEqual({ status: 400, body: { error: 'The smallest tip is $0.50.' } });
    expect(await tip(poster, job.id, 5001)).toEqual({ status: 400, body: { error: "A tip can be at most the job's payment ($50.00)." } });
    expect((await tip(poster, 'no-such-job', 500)).status).toBe(404);

    await tableClient(stack()).send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.job(job.id),
        UpdateExpression: 'SET releasedAt = :then',
        ExpressionAttributeValues: { ':then': new Date(Date.now() - 7 * 86_400_000 - 60_000).toISOString() },
      }),
    );
    expect(await tip(poster, job.id, 500)).toEqual({ status: 409, body: { error: MSG.tips.windowClosed } });

    const open = await postPaidJob(stack(), poster, jobForm);
    const completed = await setJobStatus(stack(), open, 'completed', worker.userId);
    expect(await tip(poster, completed.id, 500)).toEqual({ status: 409, body: { error: MSG.tips.onlyPaid } });
    expect(tipIntentsCreated(job.id)).toHaveLength(0);
  }, 120_000);

  it('sends the poster to the card step when the bank asks for authentication, and settles the tip once it is confirmed there', async () => {
    const { poster, worker, job } = await releasedJob(TEST_CARDS.alwaysAuthenticates);
    const first = await tip(poster, job.id, 1000);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'card_needed', message: MSG.tips.cardNeeded, payment: { amount: 1000, clientSecret: expect.stringContaining('_secret_') } });
    if (first.body.status !== 'card_needed') return;
    const { paymentIntentId } = first.body.payment;
    expect(await stripeOf(stack()).paymentIntents.retrieve(paymentIntentId)).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'authentication_required' } });
    // Another amount meanwhile is refused: the tip in progress is the one to finish.
    expect(await tip(poster, job.id, 500)).toEqual({ status: 409, body: { error: MSG.tips.otherAmountInProgress } });

    // The poster confirms on-session with a card (as the card step does); the webhook settles the tip.
    await stripeOf(stack()).paymentIntents.confirm(paymentIntentId, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    const earnings = await api<Earnings>(stack(), 'GET', '/me/earnings', { token: worker.idToken });
    expect(earnings.body).toMatchObject({ totalTips: 1000 });
    // The app's own request after the card step finds it done: one intent, one transfer of the tip.
    expect((await tip(poster, job.id, 1000)).body).toMatchObject({ status: 'paid', job: { tip: 1000 } });
    expect(tipIntentsCreated(job.id)).toHaveLength(1);
    const transfers = (await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data;
    expect(transfers.filter((transfer) => transfer.metadata.tip === 'true').map((transfer) => transfer.amount)).toEqual([1000]);
  }, 120_000);
});
