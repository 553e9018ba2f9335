import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, Earnings, JobPaymentStart, JobSummary, OwnProfile, Page, PaymentRecord } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { EARNINGS_WEEKS } from '../../shared/money.js';
import { recentWeeks } from '../../shared/series.js';
import { jobIndexKeys } from '../../functions/jobs/jobs.js';
import { keys } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { APP_ORIGIN, TEST_CARDS, connectPaymentAccount, postPaidJob, settle, stripeKeysSecret, stripeOf } from '../support/payments.js';
import { awaitFreshWindow } from '../support/rate-limits.js';

const form = {
  title: 'Haul old furniture',
  description: 'Two chairs and a table to the dump.',
  address: { street: '8 Oak Ave', city: 'Austin', state: 'TX' },
  payment: 5000,
  category: 'Moving',
  date: new Date().toISOString().slice(0, 10),
  duration: '2 hours',
};

describe('payments through the Stripe test-mode simulator', () => {
  const stack = useLocalStack();
  let admin: TestUser;

  async function connectedUser(role: 'poster' | 'worker'): Promise<TestUser> {
    const user = await createUser(stack(), { role });
    await connectPaymentAccount(stack(), user);
    return user;
  }

  const paymentRows = async (jobId: string) => (await queryIndex(stack(), 'GSI1', keys.paymentsLog())).filter((row) => row.jobId === jobId);

  /** Moves a job to `completed` with a worker (stands in for accept and complete of the lifecycle). */
  async function completeWith(job: JobSummary, workerId: string) {
    const completed = { ...job, status: 'completed' as const, workerId };
    const index = jobIndexKeys(completed);
    await tableClient(stack()).send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.job(job.id),
        UpdateExpression: 'SET #status = :s, workerId = :w, gsi1pk = :a, gsi1sk = :b, gsi2sk = :c, gsi3pk = :d, gsi3sk = :e',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':s': 'completed', ':w': workerId, ':a': index.gsi1pk, ':b': index.gsi1sk, ':c': index.gsi2sk, ':d': index.gsi3pk, ':e': index.gsi3sk },
      }),
    );
  }

  it('connects a payment account through onboarding, kept in sync by account.updated', async () => {
    admin = await createUser(stack(), { role: 'admin' });
    const worker = await createUser(stack(), { role: 'worker' });
    const me = async () => (await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body;
    expect((await me()).paymentAccount.status).toBe('not_connected');

    const link = await api<{ accountLinkUrl: string }>(stack(), 'POST', '/payments/account', { token: worker.idToken, headers: { origin: APP_ORIGIN } });
    expect(link.status).toBe(200);
    expect((await fetch(link.body.accountLinkUrl)).status).toBe(200);
    const abandoned = await fetch(`${link.body.accountLinkUrl}/abandon`, { method: 'POST', redirect: 'manual' });
    expect(abandoned.headers.get('location')).toBe(`${APP_ORIGIN}/profile#payment-settings`);
    await settle(stack());
    expect((await me()).paymentAccount.status).toBe('pending');

    const again = await api<{ accountLinkUrl: string }>(stack(), 'POST', '/payments/account', { token: worker.idToken, headers: { origin: APP_ORIGIN } });
    const completed = await fetch(`${again.body.accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
    expect(completed.headers.get('location')).toBe(`${APP_ORIGIN}/worker-dashboard?stripe_setup=success`);
    await settle(stack());
    // The webhook alone brought the profile up to date.
    expect((await me()).paymentAccount).toMatchObject({ status: 'complete', chargesEnabled: true, payoutsEnabled: true, instantPayoutsAvailable: true });
  });

  it('requires a complete payment account to post', async () => {
    const poster = await createUser(stack(), { role: 'poster' });
    expect(await api(stack(), 'POST', '/jobs', { token: poster.idToken, body: form })).toEqual({
      status: 403,
      body: { error: MSG.payments.accountNeededToPost },
    });
  });

  it('keeps a job a hidden draft until its payment succeeds, then opens it exactly once', async () => {
    const [poster, worker] = await Promise.all([connectedUser('poster'), createUser(stack(), { role: 'worker' })]);
    const started = await api<JobPaymentStart>(stack(), 'POST', '/jobs', { token: poster.idToken, body: form });
    expect(started.status).toBe(201);
    expect(started.body.job.status).toBe('awaiting_payment');
    expect(started.body.payment.amount).toBe(5700);
    const jobId = started.body.job.id;
    expect((await api(stack(), 'GET', `/jobs/${jobId}`, { token: worker.idToken })).status).toBe(404);
    expect((await api<Page<JobSummary>>(stack(), 'GET', '/jobs')).body.items.map((j) => j.id)).not.toContain(jobId);

    // A declined card changes nothing.
    await expect(stripeOf(stack()).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: TEST_CARDS.declined })).rejects.toThrow(
      'Your card was declined.',
    );
    expect(await api(stack(), 'POST', '/payments/confirm', { token: poster.idToken, body: { paymentIntentId: started.body.payment.paymentIntentId } })).toEqual({
      status: 409,
      body: { error: MSG.payments.notSucceeded },
    });

    // The card succeeds; the webhook and five client confirmations race.
    await stripeOf(stack()).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds });
    const confirmations = await Promise.all(
      Array.from({ length: 5 }, () => api<JobSummary>(stack(), 'POST', '/payments/confirm', { token: poster.idToken, body: { paymentIntentId: started.body.payment.paymentIntentId } })),
    );
    await settle(stack());
    expect(confirmations.every((c) => c.status === 200 && c.body.status === 'open')).toBe(true);
    const rows = await paymentRows(jobId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 5700, platformFee: 700, stripeFee: 195, status: 'succeeded' });
    expect((await api<Page<JobSummary>>(stack(), 'GET', '/jobs')).body.items.map((j) => j.id)).toContain(jobId);
  });

  it("resumes a draft's card step with its own PaymentIntent, for its poster alone, until it is paid", async () => {
    const [poster, otherPoster, worker] = await Promise.all([connectedUser('poster'), connectedUser('poster'), createUser(stack(), { role: 'worker' })]);
    const started = await api<JobPaymentStart>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, title: 'Paid later' } });
    const path = `/jobs/${started.body.job.id}/payment`;
    for (const other of [otherPoster, worker, admin]) {
      expect(await api(stack(), 'GET', path, { token: other.idToken })).toEqual({ status: 404, body: { error: MSG.jobs.notFound } });
    }

    // Left at the card step (a declined card, then the tab closed): the same intent comes back.
    await expect(stripeOf(stack()).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: TEST_CARDS.declined })).rejects.toThrow();
    const resumed = await api<JobPaymentStart>(stack(), 'GET', path, { token: poster.idToken });
    expect(resumed).toEqual({ status: 200, body: { job: expect.objectContaining({ id: started.body.job.id, status: 'awaiting_payment' }), payment: started.body.payment } });

    await stripeOf(stack()).paymentIntents.confirm(resumed.body.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds });
    expect((await api<JobSummary>(stack(), 'POST', '/payments/confirm', { token: poster.idToken, body: { paymentIntentId: resumed.body.payment.paymentIntentId } })).body.status).toBe('open');
    await settle(stack());
    expect(await paymentRows(started.body.job.id)).toEqual([expect.objectContaining({ amount: 5700, status: 'succeeded' })]);
    expect(await api(stack(), 'GET', path, { token: poster.idToken })).toEqual({ status: 409, body: { error: MSG.jobs.statusChanged } });
  });

  it('applies a webhook delivered 5 times and out of order once', async () => {
    const poster = await connectedUser('poster');
    stack().stripe.setDelivery({ copies: 5, shuffle: true });
    try {
      const started = await api<JobPaymentStart>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, title: 'Webhook only' } });
      await stripeOf(stack()).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds });
      await settle(stack());
      expect(await paymentRows(started.body.job.id)).toHaveLength(1);
      const job = await api<JobSummary>(stack(), 'GET', `/jobs/${started.body.job.id}`, { token: poster.idToken });
      expect(job.body.status).toBe('open');
    } finally {
      stack().stripe.setDelivery({ copies: 1, shuffle: false });
    }
  });

  it('refuses a webhook with a bad signature and writes nothing', async () => {
    const [event] = stack().stripe.events().slice(-1);
    const before = (await queryIndex(stack(), 'GSI1', keys.paymentsLog())).length;
    const tampered = await fetch(`${stack().urls.api}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
      body: JSON.stringify({ ...event, id: 'evt_forged', type: 'payment_intent.succeeded' }),
    });
    expect(tampered.status).toBe(400);
    await settle(stack());
    expect((await queryIndex(stack(), 'GSI1', keys.paymentsLog())).length).toBe(before);
  });

  it('refunds the poster when an open paid job is deleted, and lets the admin refund with a reason', async () => {
    const poster = await connectedUser('poster');
    const deleted = await postPaidJob(stack(), poster, { ...form, title: 'To delete' });
    expect((await api(stack(), 'DELETE', `/jobs/${deleted.id}`, { token: poster.idToken })).status).toBe(204);
    await settle(stack());
    expect((await paymentRows(deleted.id))[0]).toMatchObject({ status: 'refunded' });
    const intent = await stripeOf(stack()).paymentIntents.retrieve((await paymentRows(deleted.id))[0]!.stripePaymentIntentId, { expand: ['latest_charge'] });
    expect(intent.latest_charge).toMatchObject({ refunded: true, amount_refunded: 5700 });

    const kept = await postPaidJob(stack(), poster, { ...form, title: 'Refunded by the admin' });
    const [row] = await paymentRows(kept.id);
    const path = `/admin/payments/${row!.stripePaymentIntentId}/refund`;
    expect((await api(stack(), 'POST', path, { token: poster.idToken, body: { reason: 'x' } })).status).toBe(403);
    expect((await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: ' ' } })).body).toEqual({
      error: MSG.payments.refundReasonRequired,
      fields: { reason: MSG.payments.refundReasonRequired },
    });
    expect((await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Duplicate listing' } })).body).toEqual({ refunded: true });
    await settle(stack());
    const listed = await api<{ items: PaymentRecord[] }>(stack(), 'GET', '/admin/payments', { token: admin.idToken });
    expect(listed.body.items.find((p) => p.jobId === kept.id)).toMatchObject({ status: 'refunded' });
    const actions = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((a) => a.actionType === 'issue_refund');
    expect(actions).toEqual([expect.objectContaining({ adminId: admin.userId, targetId: row!.stripePaymentIntentId, reason: 'Duplicate listing' })]);
  });

  it('refunds the poster when an assigned paid job is cancelled', async () => {
    const [poster, worker] = await Promise.all([connectedUser('poster'), connectedUser('worker')]);
    const job = await postPaidJob(stack(), poster, { ...form, title: 'To cancel' });
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken });
    expect((await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/cancel`, { token: poster.idToken })).body.status).toBe('cancelled');
    await settle(stack());
    expect((await paymentRows(job.id))[0]).toMatchObject({ status: 'refunded' });
    // Deleting the cancelled job later refunds nothing more.
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: poster.idToken })).status).toBe(204);
    await settle(stack());
    const intent = await stripeOf(stack()).paymentIntents.retrieve((await paymentRows(job.id))[0]!.stripePaymentIntentId, { expand: ['latest_charge'] });
    expect(intent.latest_charge).toMatchObject({ amount_refunded: 5700 });
  });

  it("counts a job's refund as done when the admin refunded it before the job was deleted, whatever Stripe delivers late", async () => {
    const poster = await connectedUser('poster');
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Refunded, then deleted' });
    const [row] = await paymentRows(job.id);
    const refund = await api(stack(), 'POST', `/admin/payments/${row!.stripePaymentIntentId}/refund`, { token: admin.idToken, body: { reason: 'Poster asked' } });
    expect(refund.body).toEqual({ refunded: true });
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: poster.idToken })).status).toBe(204);
    await settle(stack());

    // The refund's own webhook again, after the job is gone (Stripe's resend, a retry): it names
    // the decision that made it, which is settled, so nothing more is refunded or written.
    const created = stack().stripe.events().find((event) => event.type === 'refund.created' && (event.data.object as { payment_intent: string }).payment_intent === row!.stripePaymentIntentId);
    await stack().stripe.redeliver(created!.id);
    await settle(stack());

    expect((await paymentRows(job.id))[0]).toMatchObject({ status: 'refunded', refundReason: 'Poster asked', refundedAmount: 5700 });
    const intent = await stripeOf(stack()).paymentIntents.retrieve(row!.stripePaymentIntentId, { expand: ['latest_charge'] });
    expect(intent.latest_charge).toMatchObject({ amount_refunded: 5700 });
    expect((await stripeOf(stack()).refunds.list({ payment_intent: row!.stripePaymentIntentId })).data).toHaveLength(1);
    const refunds = (await queryIndex(stack(), 'GSI1', keys.ledgerLog())).filter((movement) => movement.scope === `job:${job.id}` && movement.kind === 'refund');
    expect(refunds).toHaveLength(1);
  });

  it('releases a completed job once however many times it is asked, and counts the earnings', async () => {
    const [poster, worker, unconnected] = await Promise.all([connectedUser('poster'), connectedUser('worker'), createUser(stack(), { role: 'worker' })]);
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Release me' });
    const release = (token: string) => api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/release-payment`, { token });

    expect((await release(poster.idToken)).body).toMatchObject({ error: MSG.payments.noWorkerAssigned });
    await completeWith(job, unconnected.userId);
    expect((await release(poster.idToken)).body).toMatchObject({ error: MSG.payments.workerNotConnected });
    await completeWith(job, worker.userId);
    expect((await release(worker.idToken)).status).toBe(404);

    const results = await Promise.all(Array.from({ length: 20 }, () => release(poster.idToken)));
    await settle(stack());
    expect(results.every((r) => r.status === 200 && r.body.status === 'paid')).toBe(true);
    const transfers = await stripeOf(stack()).transfers.list({ transfer_group: job.id });
    expect(transfers.data).toHaveLength(1);
    expect(transfers.data[0]).toMatchObject({ amount: 5000 });

    const profile = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }));
    expect(profile.Item!.completedJobs).toBe(1);
    const notifications = await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken });
    expect(notifications.body.items.filter((n) => n.type === 'payment_released')).toHaveLength(1);
    const earnings = await api<Earnings>(stack(), 'GET', '/me/earnings', { token: worker.idToken });
    expect(earnings.body).toMatchObject({ totalEarned: 5000, paymentAccount: { status: 'complete' } });
    expect(earnings.body.paidJobs.map((j) => j.id)).toEqual([job.id]);
    // The chart's weeks: the last 12, this one last (a worker without a saved zone: UTC), the payment in this week.
    expect(earnings.body.weeks.map((week) => week.week)).toEqual(recentWeeks(EARNINGS_WEEKS, new Date().toISOString().slice(0, 10)));
    expect(earnings.body.weeks.at(-1)).toMatchObject({ payments: 5000, tips: 0 });
    expect(earnings.body.weeks.slice(0, -1).every((week) => week.payments === 0)).toBe(true);
  });

  it("lets the admin release a completed job with a required reason, audited once however many clicks race", async () => {
    const [poster, worker] = await Promise.all([connectedUser('poster'), connectedUser('worker')]);
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Released by the admin' });
    await completeWith(job, worker.userId);
    const release = (body: object) => api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/release-payment`, { token: admin.idToken, body });

    for (const body of [{}, { reason: '  ' }]) {
      expect((await release(body)).body).toEqual({ error: MSG.payments.releaseReasonRequired });
    }
    expect(await stripeOf(stack()).transfers.list({ transfer_group: job.id })).toMatchObject({ data: [] });

    const results = await Promise.all(Array.from({ length: 5 }, () => release({ reason: 'The poster stopped answering' })));
    await settle(stack());
    expect(results.map((r) => r.body.status)).toEqual(Array(5).fill('paid'));
    expect((await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data).toEqual([expect.objectContaining({ amount: 5000 })]);
    const actions = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((a) => a.actionType === 'release_payment' && a.targetId === job.id);
    expect(actions).toEqual([expect.objectContaining({ adminId: admin.userId, targetType: 'job', reason: 'The poster stopped answering' })]);
  });

  it('limits payment creation to 3 per minute and flags suspicious amounts', async () => {
    const poster = await connectedUser('poster');
    // The four posts in one window: straddling two would let the fourth through.
    await awaitFreshWindow('paymentCreation', 25);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, payment: 60_000 } })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const alerts = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((a) => a.actionType === 'suspicious_payment' && a.targetId === poster.userId);
    expect(alerts.length).toBe(3);
  });

  // Last in the file: it leaves the stack on a rolled key, which stripeOf (the first key) no longer opens.
  it('answers 503 to retry when Stripe refuses a key rotated away early, and the retry reads the new key', async () => {
    const worker = await connectedUser('worker');
    const refresh = () => api(stack(), 'POST', '/payments/account/status', { token: worker.idToken });
    expect((await refresh()).status).toBe(200);
    // The operator puts the rolled key in the secret and expires the old one at once, well within
    // the 5 minutes the functions keep a key they read (docs/deploy.md asks to wait them out).
    const secret = stripeKeysSecret(stack());
    const oldKey = (await secret.read()).secretKey!;
    await secret.put({ ...(await secret.read()), secretKey: stack().stripe.rollSecretKey() });
    stack().stripe.expireSecretKey(oldKey);

    const refused = await fetch(`${stack().urls.api}/payments/account/status`, { method: 'POST', headers: { authorization: `Bearer ${worker.idToken}` } });
    expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), body: await refused.json() }).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^\d+$/),
      body: expect.objectContaining({ error: MSG.payments.unavailable }),
    });
    expect((await refresh()).status).toBe(200);
  });
});
