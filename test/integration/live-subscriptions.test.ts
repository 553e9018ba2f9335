import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../shared/api.js';
import { categoryTopic, FEED_TOPIC, jobTopic, OWN_JOBS_TOPIC } from '../../shared/live.js';
import { ENV, EVENT_SOURCE, JOB_EVENT, type JobChange } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { connectionShardOf } from '../../functions/lib/sockets.js';
import { tableClient, useLocalStack } from '../support/local-stack.js';
import { createPoster, postPaidJob, settle } from '../support/payments.js';
import { LiveSocket } from '../support/live-socket.js';

const jobSummary = (changes: Partial<JobSummary> = {}): JobSummary => ({
  id: randomUUID(),
  title: 'Hang three shelves',
  description: 'In the living room.',
  location: 'Austin, TX',
  payment: 4000,
  platformFee: 400,
  postedAmount: 4400,
  category: 'Handyman',
  date: '2026-12-01',
  duration: '2 hours',
  status: 'open',
  moneyState: 'held',
  posterId: `poster-${randomUUID()}`,
  pendingApplications: 0,
  requirements: [],
  skills: [],
  images: [],
  verifiedWorkersOnly: false,
  openToOffers: false,
  createdAt: '2026-11-26T08:00:00.000Z',
  updatedAt: '2026-11-26T08:00:00.000Z',
  ...changes,
});

describe('live job pushes to the sockets subscribed to them', () => {
  // A window wide enough that the three changes of the coalescing test fall in it on a busy machine.
  const stack = useLocalStack({ liveCoalescingSeconds: 4 });
  const url = () => stack().urls.webSocket;

  /** Puts job changes on the bus, as the outbox relay does, in one PutEvents (one coalescing window). */
  async function publish(...changes: Array<{ job: JobSummary; change?: JobChange; removed?: boolean }>): Promise<void> {
    await new EventBridgeClient({ endpoint: stack().urls.events }).send(
      new PutEventsCommand({
        Entries: changes.map(({ job, change, removed }) => ({
          EventBusName: process.env[ENV.eventBusName],
          Source: EVENT_SOURCE.jobs,
          DetailType: removed ? JOB_EVENT.removed : JOB_EVENT.updated,
          Detail: JSON.stringify({ job, change }),
        })),
      }),
    );
    await settle(stack());
  }

  it('pushes a posted job to visitors and members showing the feed, its category or their own jobs, not to another category or a socket that subscribed to nothing', async () => {
    const poster = await createPoster(stack());
    const [feed, petCare, otherCategory, silent, own] = await Promise.all([
      LiveSocket.open(url()),
      LiveSocket.open(url()),
      LiveSocket.open(url()),
      LiveSocket.open(url()),
      LiveSocket.open(url(), poster.idToken),
    ]);
    expect((await feed.subscribe([FEED_TOPIC])).topics).toEqual([FEED_TOPIC]);
    await petCare.subscribe([categoryTopic('Pet Care')]);
    await otherCategory.subscribe([categoryTopic('Moving')]);
    await own.subscribe([OWN_JOBS_TOPIC]);

    const job = await postPaidJob(stack(), poster, {
      title: 'Walk my dog',
      description: 'Thirty minutes around the block.',
      address: { street: '1 Elm St', city: 'Austin', state: 'TX' },
      payment: 2000,
      category: 'Pet Care',
      date: new Date().toISOString().slice(0, 10),
      duration: '30 minutes',
    });
    await settle(stack());

    for (const socket of [feed, petCare, own]) {
      // Announced as posted (the grid's "new job"), with the public fields only.
      await expect.poll(() => socket.jobPushes().at(-1)).toEqual({ type: 'job.posted', job, cursor: expect.any(String) });
      expect(JSON.stringify(socket.jobPushes())).not.toContain('1 Elm St');
    }
    expect(otherCategory.jobPushes()).toEqual([]);
    expect(silent.frames).toEqual([]);
    await Promise.all([feed, petCare, otherCategory, silent, own].map((socket) => socket.close()));
   }, 60_000);

  it("sends an application's change to the job's page only, and nothing after an unsubscribe or a disconnect, whose subscriptions are deleted", async () => {
    const job = jobSummary();
    const [page, grid] = await Promise.all([LiveSocket.open(url()), LiveSocket.open(url())]);
    await page.subscribe([jobTopic(job.id)]);
    await grid.subscribe([FEED_TOPIC]);

    await publish({ job: { ...job, pendingApplications: 1 }, change: 'applications' });
    await expect.poll(() => page.jobPushes()).toEqual([{ type: 'job.updated', job: { ...job, pendingApplications: 1 }, cursor: expect.any(String) }]);
    // A card shows no applicant count: the grid is not told.
    expect(grid.jobPushes()).toEqual([]);

    page.send({ action: 'unsubscribe', topics: [jobTopic(job.id)] });
    const subscriptionItems = async (connectionTopic: string) =>
      (
        await tableClient(stack()).send(
          new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': connectionTopic } }),
        )
      ).Items ?? [];
    // The socket's id is not known to a client; every shard's partition of the topic is empty.
    const everyShard = async (topic: string) => (await Promise.all(Array.from({ length: 16 }, (_, shard) => subscriptionItems(keys.subscribers(topic, shard))))).flat();
    await expect.poll(() => everyShard(jobTopic(job.id))).toEqual([]);
    await publish({ job: { ...job, pendingApplications: 2, updatedAt: '2026-11-26T08:01:00.000Z' }, change: 'applications' });
    expect(page.jobPushes()).toHaveLength(1);

    expect(await everyShard(FEED_TOPIC)).toHaveLength(1);
    await grid.close();
    await expect.poll(() => everyShard(FEED_TOPIC)).toEqual([]);
    await page.close();
  });

  it('reads and invokes nothing for a change no socket watches, and only the watching shard for one that is', async () => {
    const job = jobSummary();
    const fanOut = 'queue-jobFeedShard';
    let queries = 0;
    const stopObserving = stack().observeDynamoDb(({ operation, functionName }) => {
      if (functionName === fanOut && operation === 'Query') queries += 1;
    });
    const invocations = () => stack().functions.invocationCounts().get(fanOut) ?? 0;
    try {
      const before = invocations();
      await publish({ job: { ...job, pendingApplications: 1 }, change: 'applications' });
      // The flush alone: it finds no shard watching the job or its poster.
      expect([invocations() - before, queries]).toEqual([1, 0]);

      const page = await LiveSocket.open(url());
      await page.subscribe([jobTopic(job.id)]);
      const watched = invocations();
      queries = 0;
      await publish({ job: { ...job, pendingApplications: 2, updatedAt: '2026-11-26T08:01:00.000Z' }, change: 'applications' });
      await expect.poll(() => page.jobPushes()).toHaveLength(1);
      // The flush and the page's shard, which reads the job's topic and not the poster's.
      expect([invocations() - watched, queries]).toEqual([2, 1]);
      await page.close();
    } finally {
      stopObserving();
    }
  });

  it('coalesces changes of one job within the window into one push of the newest state', async () => {
    const job = jobSummary();
    const page = await LiveSocket.open(url());
    await page.subscribe([jobTopic(job.id)]);
    const states = [1, 2, 3].map((count) => ({ ...job, pendingApplications: count, updatedAt: `2026-11-26T08:0${count}:00.000Z` }));
    // Out of order, as the bus may deliver them: the newest wins wherever it arrives.
    await publish(...[states[0]!, states[2]!, states[1]!].map((state) => ({ job: state, change: 'applications' as const })));
    await expect.poll(() => page.jobPushes().length).toBe(1);
    await settle(stack());
    expect(page.jobPushes()).toEqual([{ type: 'job.updated', job: states[2], cursor: expect.any(String) }]);
    await page.close();
  });

  it('sends a reconnecting socket each job change it missed once, from its cursor, and says the catch-up is complete', async () => {
    const [seen, missed, other] = [jobSummary(), jobSummary(), jobSummary({ category: 'Moving' })];
    const first = await LiveSocket.open(url());
    await first.subscribe([categoryTopic('Handyman')]);
    await publish({ job: seen, change: 'edited' });
    await expect.poll(() => first.jobPushes().length).toBe(1);
    const cursor = first.jobPushes()[0]!.cursor;
    await first.close();

    // While it was away: one job changed twice (two windows), another job was removed, and a job of another category changed.
    await publish({ job: { ...missed, title: 'Hang four shelves', updatedAt: '2026-11-26T08:05:00.000Z' }, change: 'edited' });
    await publish({ job: { ...missed, status: 'assigned', workerId: 'worker-1', updatedAt: '2026-11-26T08:06:00.000Z' }, change: 'assigned' });
    await publish({ job: seen, removed: true });
    await publish({ job: other, change: 'edited' });

    const second = await LiveSocket.open(url());
    const reply = await second.subscribe([categoryTopic('Handyman')], cursor);
    expect(reply.complete).toBe(true);
    expect(second.jobPushes()).toEqual([
      { type: 'job.updated', job: { ...missed, status: 'assigned', workerId: 'worker-1', updatedAt: '2026-11-26T08:06:00.000Z' }, cursor: expect.any(String) },
      { type: 'job.removed', jobId: seen.id, cursor: expect.any(String) },
    ]);
    expect(reply.cursor > second.jobPushes()[1]!.cursor).toBe(true);

    // A cursor older than what is kept: the socket is told to read its lists again.
    const stale = await LiveSocket.open(url());
    expect((await stale.subscribe([categoryTopic('Handyman')], '2020-01-01T00:00:00.000Z#')).complete).toBe(false);
    await Promise.all([second.close(), stale.close()]);
  });

  it('gives a visitor no own-jobs topic and spreads subscriptions by a stable shard of the connection', async () => {
    const visitor = await LiveSocket.open(url());
    expect((await visitor.subscribe([OWN_JOBS_TOPIC, 'user:someone', 'job:a#b', FEED_TOPIC])).topics).toEqual([FEED_TOPIC]);
    await visitor.close();
    expect(connectionShardOf('abc=')).toBe(connectionShardOf('abc='));
  });
});
