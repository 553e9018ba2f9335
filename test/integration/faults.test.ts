import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, JobSummary, Page, PendingMoneyDecision } from '../../shared/api.js';
import { jobTopic } from '../../shared/live.js';
import { RATE_LIMITS } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import type { JobFeedQueueMessage } from '../../functions/live/live-feed.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { keys, timeOrdered } from '../../functions/table.js';
import type { ReconciliationResult } from '../../functions/money/reconciliation.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type ApiResponse, type TestUser } from '../support/local-stack.js';
import { ChatClient, messagesAfter, sendMessage, startConversation } from '../support/chat.js';
import { jobForm, setJobStatus } from '../support/job-lifecycle.js';
import { LiveSocket } from '../support/live-socket.js';
import { TEST_CARDS, connectPaymentAccount, createPoster, postPaidJob, settle, stripeOf } from '../support/payments.js';

/**
 * Each fault of the local emulators (infra/local/faults.ts, docs/faults.md), switched on while
 * the product runs, and the promise that holds under it: a clear answer to retry, never a 500;
 * money moved once after recovery; every event delivered once; every chat message shown once.
 * `npm run fault` runs this file and prints each test's name: the promise, and whether it held.
 */
// Above the suite's hang guard: `stripe slow` waits out two Stripe client timeouts, after the first test's cold starts.
describe('faults', { timeout: 120_000 }, () => {
  const stack = useLocalStack();
  let posters: TestUser[] = [];
  let worker: TestUser;
  let jobsPosted = 0;

  beforeAll(async () => {
    [worker, ...posters] = await Promise.all([createUser(stack(), { role: 'worker' }), ...Array.from({ length: 5 }, () => createPoster(stack()))]);
    await connectPaymentAccount(stack(), worker);
  });

  /** A poster who may still start a payment this minute (RATE_LIMITS.paymentCreation). */
  const nextPoster = () => posters[Math.floor(jobsPosted++ / RATE_LIMITS.paymentCreation.limit)]!;

  /** An open paid job, and its poster. */
  async function openJob(title: string): Promise<{ job: JobSummary; poster: TestUser }> {
    const poster = nextPoster();
    return { job: await postPaidJob(stack(), poster, { ...jobForm, title }), poster };
  }

  afterEach(async () => {
    stack().faults.clear();
    await settle(stack());
  });

  /** A paid job its worker has done: ready to release by its poster. */
  async function completedJob(title: string): Promise<{ job: JobSummary; release: () => ReturnType<typeof call<JobSummary>> }> {
    const { job, poster } = await openJob(title);
    await setJobStatus(stack(), job, 'completed', worker.userId);
    return { job, release: () => call<JobSummary>('POST', `/jobs/${job.id}/release-payment`, poster) };
  }

  /** Answers a dependency's failure the way a client can act on: 503 (or Stripe's 429) with Retry-After, never a 500. */
  function expectRetryable(response: ApiResponse<unknown> & { retryAfter: string | null }, ...messages: string[]) {
    expect(response.status === 503 || response.status === 429, `status ${response.status}: ${JSON.stringify(response.body)}`).toBe(true);
    expect(response.retryAfter).toMatch(/^\d+$/);
    expect(messages).toContain((response.body as { error: string }).error);
  }

  /** An API call that also reports the Retry-After header. */
  async function call<T>(method: string, path: string, user: TestUser, body?: unknown): Promise<ApiResponse<T> & { retryAfter: string | null }> {
    const response = await fetch(`${stack().urls.api}${path}`, {
      method,
      headers: { authorization: `Bearer ${user.idToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, retryAfter: response.headers.get('retry-after') };
  }

  const transfersOf = async (job: JobSummary) => (await stripeOf(stack()).transfers.list({ transfer_group: job.id })).data;

  it('stripe down: a release answers 503 with Retry-After and moves no money; once Stripe is back, one release pays once', async () => {
    const { job, release } = await completedJob('Release during an outage');
    stack().faults.set('stripe', 'down');
    expectRetryable(await release(), MSG.backend.network);
    stack().faults.clear();
    await settle(stack());
    expect(await transfersOf(job)).toEqual([]);
    expect((await api<JobSummary>(stack(), 'GET', `/jobs/${job.id}`, { token: worker.idToken })).body.status).toBe('completed');

    const released = await release();
    expect(released.body).toMatchObject({ status: 'paid' });
    await settle(stack());
    expect(await transfersOf(job)).toHaveLength(1);
  });

  it("stripe down: a cancelled job's refund stays a pending decision the admin sees, counted overdue and by reconciliation, and the retry schedule refunds once when Stripe is back", async () => {
    const { job, poster } = await openJob('Cancelled during an outage');
    await setJobStatus(stack(), job, 'assigned', worker.userId);
    stack().faults.set('stripe', 'down');
    expect((await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/cancel`, { token: poster.idToken })).body.status).toBe('cancelled');
    await settle(stack());
    const [payment] = (await queryIndex(stack(), 'GSI1', keys.paymentsLog())).filter((row) => row.jobId === job.id);
    const refunded = async () => {
      const intent = await stripeOf(stack()).paymentIntents.retrieve(payment!.stripePaymentIntentId as string, { expand: ['latest_charge'] });
      return (intent.latest_charge as { amount_refunded: number }).amount_refunded;
    };
    const admin = await createUser(stack(), { role: 'admin' });
    const pendingOfJob = async () => (await api<{ items: PendingMoneyDecision[] }>(stack(), 'GET', '/admin/money/decisions', { token: admin.idToken })).body.items.filter((decision) => decision.jobId === job.id);
    const [pending] = await pendingOfJob();
    expect(pending).toMatchObject({ action: 'refund', attempts: 1, lastError: expect.any(String) });

    // Still down a while later: the schedule's run counts it overdue (the alarm's metric), reconciliation names it.
    const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    await tableClient(stack()).send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.moneyDecision(pending!.id),
        UpdateExpression: 'SET decidedAt = :then, gsi1sk = :sk',
        ExpressionAttributeValues: { ':then': longAgo, ':sk': timeOrdered(longAgo, pending!.id) },
      }),
    );
    const runSchedule = () => stack().functions.invoke(recurringScheduleName('moneyDecisions'), RECURRING_SCHEDULES.moneyDecisions, { retryAfterSeconds: 0 });
    expect(await runSchedule()).toMatchObject({ stillPending: 1, overdue: 1 });
    stack().faults.clear();
    // Stripe back, before the schedule's next run: the day's reconciliation names the decision still pending.
    const reconciled = (await stack().functions.invoke(recurringScheduleName('reconciliation'), RECURRING_SCHEDULES.reconciliation, { graceSeconds: 0 })) as ReconciliationResult;
    expect(reconciled.differences).toContainEqual(expect.objectContaining({ kind: 'pending_decision', object: { kind: 'decision', id: pending!.id }, jobId: job.id }));
    expect(await refunded()).toBe(0);

    // Recovery: the retry schedule's next run.
    expect(await runSchedule()).toMatchObject({ stillPending: 0, overdue: 0 });
    await settle(stack());
    expect(await refunded()).toBe(payment!.amount);
    expect((await queryIndex(stack(), 'GSI1', keys.paymentsLog())).find((row) => row.jobId === job.id)).toMatchObject({ status: 'refunded' });
    expect(await pendingOfJob()).toEqual([]);
  });

  it('stripe slow: a release Stripe answers too late is a 503; the retry pays with the transfer Stripe made, once', async () => {
    const { job, release } = await completedJob('Release while Stripe is slow');
    stack().faults.set('stripe', 'slow');
    expectRetryable(await release(), MSG.backend.network);
    stack().faults.clear();
    expect((await release()).body).toMatchObject({ status: 'paid' });
    await settle(stack());
    expect(await transfersOf(job)).toHaveLength(1);
  });

  it("stripe error: Stripe's 500s and 429s answer 503 or 429 with Retry-After; after them, the release pays once", async () => {
    const { job, release } = await completedJob('Release while Stripe fails');
    // Nothing else calls Stripe meanwhile (an earlier test's webhooks), so the two releases meet the alternation.
    await settle(stack());
    stack().faults.set('stripe', 'error');
    const refused = [await release(), await release()];
    refused.forEach((response) => expectRetryable(response, MSG.payments.unavailable, MSG.payments.tooManyRequests));
    // The fault alternates Stripe's 500 and its 429; the SDK retries a 429 itself, so which
    // answer a release meets depends on its calls: a 500 is met, and never passed on as a 500.
    expect(refused.map((response) => response.status)).toContain(503);
    stack().faults.clear();
    expect((await release()).body).toMatchObject({ status: 'paid' });
    await settle(stack());
    expect(await transfersOf(job)).toHaveLength(1);
  });

  it('stripe webhooks-chaos: webhooks late, twice and out of order open a paid job once, with one payment', async () => {
    stack().faults.set('stripe', 'webhooks-chaos');
    // Paid on Stripe only: the job opens from the webhooks alone (the page closed before it confirmed).
    const poster = nextPoster();
    const started = await api<{ job: JobSummary; payment: { paymentIntentId: string } }>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...jobForm, title: 'Opened by webhooks' } });
    expect(started.status).toBe(201);
    await stripeOf(stack()).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: TEST_CARDS.succeeds });
    await settle(stack());
    expect((await api<JobSummary>(stack(), 'GET', `/jobs/${started.body.job.id}`, { token: poster.idToken })).body.status).toBe('open');
    expect((await queryIndex(stack(), 'GSI1', keys.paymentsLog())).filter((row) => row.jobId === started.body.job.id)).toHaveLength(1);
    const posted = (await api<Page<AppNotification>>(stack(), 'GET', '/me/notifications', { token: poster.idToken })).body.items.filter(
      (notification) => notification.jobId === started.body.job.id,
    );
    expect(new Set(posted.map((notification) => notification.type)).size).toBe(posted.length);
  });

  it('dynamodb throttle: every call throttled answers 503 with Retry-After, never a 500; a quarter throttled is absorbed by the retries', async () => {
    const { job } = await openJob('Saved while throttled');
    stack().faults.set('dynamodb', 'throttle');
    expectRetryable(await call('PUT', `/me/saved-jobs/${job.id}`, worker), MSG.backend.unavailable);
    expectRetryable(await call('GET', `/jobs/${job.id}`, worker), MSG.backend.unavailable);
    stack().faults.set('dynamodb', 'throttle', 0.25);
    expect((await call('PUT', `/me/saved-jobs/${job.id}`, worker)).status).toBeLessThan(300);
    expect((await call<JobSummary>('GET', `/jobs/${job.id}`, worker)).body.id).toBe(job.id);
  });

  it('dynamodb conflict: transactions cancelled for conflict answer 503 with Retry-After or the job-changed 409, never a 500; half of them are retried away', async () => {
    const { job, poster } = await openJob('Applied to in conflict');
    stack().faults.set('dynamodb', 'conflict');
    const refused = await call('POST', `/jobs/${job.id}/applications`, worker, {});
    expect(refused.status, JSON.stringify(refused.body)).not.toBe(500);
    expect([409, 503]).toContain(refused.status);
    stack().faults.set('dynamodb', 'conflict', 0.5);
    expect((await call('POST', `/jobs/${job.id}/applications`, worker, {})).status).toBe(201);
    stack().faults.clear();
    expect((await api<JobSummary>(stack(), 'GET', `/jobs/${job.id}`, { token: poster.idToken })).body).toMatchObject({ pendingApplications: 1 });
  });

  it('events fail: while the bus refuses PutEvents nothing is lost; once it takes them, the outbox delivers each change once', async () => {
    const { job, poster } = await openJob('Edited while the bus fails');
    await settle(stack());
    const socket = await LiveSocket.open(stack().urls.webSocket, worker.idToken);
    try {
      await socket.subscribe([jobTopic(job.id)]);
      stack().faults.set('events', 'fail');
      const edited = await api(stack(), 'PUT', `/jobs/${job.id}`, { token: poster.idToken, body: { ...jobForm, images: [], title: 'Edited once' } });
      expect(edited.status).toBe(200);
      await settle(stack());
      expect(socket.jobPushes()).toEqual([]);
      stack().faults.clear();
      await settle(stack());
      expect(socket.jobPushes().map((push) => push.type === 'job.updated' && push.job.title)).toEqual(['Edited once']);
    } finally {
      await socket.close();
    }
  });

  const lambdaPromises = {
    error: 'lambda error on half the invocations (each handler ran, then its invocation failed): the retries email the notification once, not again',
    delay: 'lambda delay on half the invocations (each timed out before its handler ran): the retries email the notification, none lost',
  } as const;
  for (const mode of ['error', 'delay'] as const) {
    it(lambdaPromises[mode], async () => {
      const { job, poster } = await openJob(`Assigned under lambda ${mode}`);
      expect((await call('POST', `/jobs/${job.id}/applications`, worker, {})).status).toBe(201);
      await settle(stack());
      const mails = () => stack().mailbox.list(worker.email).filter((mail) => mail.text.includes(job.title));
      stack().faults.set('lambda', mode, 0.5);
      // The worker's application_accepted notification goes to the mailer through a rule and a queue, both failing half the time.
      expect((await call('POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, poster)).status).toBe(200);
      await settle(stack());
      expect(mails()).toHaveLength(1);
    });
  }

  /** The poster's chat tab and the worker's, in a conversation about an open job. */
  async function chat(title: string) {
    const { job, poster } = await openJob(title);
    const conversation = await startConversation(stack(), worker, { jobId: job.id });
    const tab = new ChatClient(stack(), poster, conversation.id);
    await tab.open();
    return { conversationId: conversation.id, tab, poster };
  }

  /** Waits until the tab shows `count` messages (a drop's reconnect and catch-up take a moment). */
  async function untilShown(tab: ChatClient, count: number) {
    for (let waited = 0; tab.messages.length < count && waited < 10_000; waited += 50) await sleep(50);
  }

  it('sockets drop: connections dropped mid-conversation lose no message; after catch-up the tab shows each once, in order', async () => {
    const { conversationId, tab, poster } = await chat('Chat over a bad line');
    try {
      stack().faults.set('sockets', 'drop', 0.5);
      const sent: string[] = [];
      for (let i = 1; i <= 6; i++) {
        const response = await sendMessage(stack(), worker, conversationId, `Message ${i}`);
        expect(response.status).toBe(201);
        sent.push(response.body.message.id);
      }
      await untilShown(tab, sent.length);
      expect(tab.drops).toBeGreaterThan(0);
      expect(tab.messages.map((message) => message.id)).toEqual(sent);
      expect((await messagesAfter(stack(), poster, conversationId, null)).map((message) => message.id)).toEqual(sent);
    } finally {
      tab.close();
    }
  });

  it('sockets gone: @connections answering 410 fails no send; the messages are there to catch up, once each', async () => {
    const { conversationId, tab } = await chat('Chat to a gone connection');
    try {
      stack().faults.set('sockets', 'gone');
      const sent: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const response = await sendMessage(stack(), worker, conversationId, `Message ${i}`);
        expect(response.status).toBe(201);
        sent.push(response.body.message.id);
      }
      expect(tab.pushes).toEqual([]);
      stack().faults.clear();
      await tab.catchUp();
      expect(tab.messages.map((message) => message.id)).toEqual(sent);
    } finally {
      tab.close();
    }
  });

  it("live feed: a flush claim left behind (its give-back failed, e.g. DynamoDB throttled) expires, and the change is pushed", async () => {
    const { job } = await openJob('Pushed after a stuck claim');
    await settle(stack());
    const socket = await LiveSocket.open(stack().urls.webSocket, worker.idToken);
    try {
      await socket.subscribe([jobTopic(job.id)]);
      // What a flush leaves when pushing failed and giving its claim back failed too: claimed, expired.
      await tableClient(stack()).send(
        new PutCommand({
          TableName: stack().tableName,
          Item: {
            ...keys.pendingJobPush(job.id),
            messageType: 'job.updated',
            content: { job: { ...job, title: 'Pushed at last' } },
            topics: new Set([jobTopic(job.id)]),
            updatedAt: new Date().toISOString(),
            version: 1,
            flushedVersion: 1,
            flushClaimExpiresAt: Math.floor(Date.now() / 1000) - 1,
            expiresAt: Math.floor(Date.now() / 1000) + 3600,
          },
        }),
      );
      const flush: JobFeedQueueMessage = { kind: 'flush', jobId: job.id };
      const sqs = new SQSClient({ endpoint: stack().urls.queues, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      await sqs.send(new SendMessageCommand({ QueueUrl: stack().queues.queueUrls.jobFeedShard, MessageBody: JSON.stringify(flush) }));
      await settle(stack());
      expect(socket.jobPushes().map((push) => push.type === 'job.updated' && push.job.title)).toEqual(['Pushed at last']);
    } finally {
      await socket.close();
    }
  });
});
