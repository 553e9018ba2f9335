import { randomUUID } from 'node:crypto';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { GetQueueAttributesCommand, ListQueuesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENV } from '../../functions/routes.js';
import type { JobFeedQueueMessage } from '../../functions/live/live-feed.js';
import { FEED_TOPIC, jobTopic } from '../../shared/live.js';
import { deadLetterQueuePrefix } from '../../infra/constructs/names.js';
import { redrive } from '../../infra/redrive.js';
import { DEAD_LETTER_QUEUES } from '../../infra/dead-letter-queues.js';
import { createReleaseSchedule } from '../../functions/lib/scheduler.js';
import { api, useLocalStack } from '../support/local-stack.js';
import { jobForm } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';
import { LiveSocket } from '../support/live-socket.js';

describe('npm run redrive', () => {
  const stack = useLocalStack();
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const clients = () => ({
    sqs: new SQSClient({ endpoint: stack().urls.queues, region: 'us-east-1', credentials }),
    lambda: new LambdaClient({ endpoint: stack().urls.lambda, region: 'us-east-1', credentials }),
  });
  /** The job feed rule's queue, as a change to its configuration would set it (undefined: the stack's). */
  const jobFeedQueue = (url: string | undefined) => stack().functions.updateEnvironment('rule-jobFeed', { [ENV.jobFeedQueueUrl]: url });

  afterEach(() => {
    vi.restoreAllMocks();
    stack().functions.updateEveryEnvironment({ LOG_LEVEL: undefined });
    jobFeedQueue(undefined);
  });

  /** The messages of the consumers' log lines written while `run` runs. */
  async function messagesLoggedBy(run: () => Promise<unknown>): Promise<unknown[]> {
    stack().functions.updateEveryEnvironment({ LOG_LEVEL: 'info' });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    try {
      await run();
    } finally {
      vi.restoreAllMocks();
      stack().functions.updateEveryEnvironment({ LOG_LEVEL: undefined });
    }
    return lines.flatMap((line) => line.split('\n')).flatMap((line) => {
      try {
        return [(JSON.parse(line) as { message?: unknown }).message];
      } catch {
        return [];
      }
    });
  }

  it('re-delivers a rule\'s dead letters to that rule\'s function alone, and empties its dead-letter queue', { timeout: 120_000 }, async () => {
    const poster = await createPoster(stack());
    const job = await postPaidJob(stack(), poster, jobForm);
    await stack().events.idle();
    await stack().queues.idle();
    // One page shows the job: its shard is the one the fan-out pushes to.
    const page = await LiveSocket.open(stack().urls.webSocket);
    await page.subscribe([jobTopic(job.id)]);

    // The job feed's function fails on every event while its queue is missing; the other rules' do not.
    jobFeedQueue(`${stack().urls.queues}/000000000000/no-such-queue`);
    const whileBroken = await messagesLoggedBy(async () => {
      expect((await api(stack(), 'PUT', `/jobs/${job.id}`, { token: poster.idToken, body: { ...jobForm, images: [], title: 'Paint a redriven fence' } })).status).toBe(200);
      await stack().outboxRelay.drain();
      await stack().events.idle();
      await stack().queues.idle();
    });
    expect(whileBroken).toContain('search document synced');
    expect(whileBroken).not.toContain('job feed fanned out');
    jobFeedQueue(undefined);

    let result: Awaited<ReturnType<typeof redrive>> | undefined;
    const afterRedrive = await messagesLoggedBy(async () => {
      result = await redrive('jobFeed', clients());
      await stack().queues.idle();
    });
    expect(result).toEqual({ redriven: 1, failed: 0, movedToSource: false });
    expect(afterRedrive).toContain('job feed fanned out');
    expect(afterRedrive.filter((message) => message === 'job feed shard pushed')).toHaveLength(1);
    expect(page.jobPushes().map((push) => push.type === 'job.updated' && push.job.title)).toEqual(['Paint a redriven fence']);
    await page.close();
    // Only the consumer that failed ran again.
    expect(afterRedrive).not.toContain('search document synced');

    expect(await redrive('jobFeed', clients())).toEqual({ redriven: 0, failed: 0, movedToSource: false });
  });

  it("moves a queue's dead letters back to the queue, where its consumer takes them", async () => {
    await stack().queues.idle();
    const sqs = clients().sqs;
    const shardMessage: JobFeedQueueMessage = { kind: 'shard', shard: 0, topics: [FEED_TOPIC], message: { type: 'job.removed', jobId: 'redriven-job', cursor: `${new Date().toISOString()}#redriven-job` } };
    // The shard consumer fails on every message while it has no table.
    const shardTable = (name: string | undefined) => stack().functions.updateEnvironment('queue-jobFeedShard', { [ENV.tableName]: name });
    shardTable('no-such-table');
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: stack().queues.queueUrls.jobFeedShard!, MessageBody: JSON.stringify(shardMessage) }));
      await stack().queues.idle();
    } finally {
      shardTable(undefined);
    }
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: deadLetterQueuePrefix('OddJobsApi', 'jobFeedShard') }));
    const waiting = async () => (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: QueueUrls[0]!, AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes?.ApproximateNumberOfMessages;
    expect(await waiting()).toBe('1');

    let result: Awaited<ReturnType<typeof redrive>> | undefined;
    const logged = await messagesLoggedBy(async () => {
      result = await redrive('jobFeedShard', clients());
      await stack().queues.idle();
    });
    expect(result).toEqual({ redriven: 0, failed: 0, movedToSource: true });
    expect(logged).toEqual(['job feed shard pushed']);
    expect(await waiting()).toBe('0');
  });

  it('takes a schedule whose target kept throwing from its dead-letter queue back to that target', { timeout: 60_000 }, async () => {
    const sqs = clients().sqs;
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: deadLetterQueuePrefix('OddJobsApi', DEAD_LETTER_QUEUES.autoRelease!.constructId) }));
    expect(QueueUrls).toHaveLength(1);
    const waiting = async () => (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: QueueUrls[0]!, AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes?.ApproximateNumberOfMessages;
    const invocations = () => stack().functions.invocationCounts().get('schedule-autoRelease') ?? 0;
    const name = `release-redrive-${randomUUID()}`;
    // The auto-release target fails on every invocation while it has no table.
    const targetTable = (table: string | undefined) => stack().functions.updateEnvironment('schedule-autoRelease', { [ENV.tableName]: table });
    targetTable('no-such-table');
    try {
      // Created as the functions create them (the same group, role, dead-letter queue and retry policy), due now.
      await createReleaseSchedule(name, new Date(), { action: 'release', jobId: `redrive-${randomUUID()}`, releaseAt: new Date().toISOString() });
      expect(stack().scheduler.schedules().find((schedule) => schedule.Name === name)?.Target).toMatchObject({
        DeadLetterConfig: { Arn: expect.stringContaining(DEAD_LETTER_QUEUES.autoRelease!.constructId) },
        RetryPolicy: { MaximumRetryAttempts: expect.any(Number), MaximumEventAgeInSeconds: expect.any(Number) },
      });
      await vi.waitFor(() => expect(stack().scheduler.schedules().map((schedule) => schedule.Name)).not.toContain(name), { timeout: 20_000 });
      await stack().scheduler.idle();
    } finally {
      targetTable(undefined);
    }
    expect(await waiting()).toBe('1');
    expect(stack().scheduler.refusals()).toEqual([]);

    const before = invocations();
    expect(await redrive('autoRelease', clients())).toEqual({ redriven: 1, failed: 0, movedToSource: false });
    expect(invocations()).toBe(before + 1);
    expect(await waiting()).toBe('0');
  });

  it("refuses the outbox relay's dead-letter queue and a name that is not a declaration", async () => {
    await expect(redrive('outboxRelay', clients())).rejects.toThrow(/stream records that expired/);
    await expect(redrive('noSuchRule', clients())).rejects.toThrow(/No dead-letter queue for "noSuchRule": one of .*jobFeed/);
  });
});
