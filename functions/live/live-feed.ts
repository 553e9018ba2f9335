import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LiveMessage } from '../../shared/api.js';
import { categoryTopic, FEED_TOPIC, jobTopic, LIVE_LIMITS, OWN_JOBS_TOPIC, type LiveReply } from '../../shared/live.js';
import { JOB_EVENT, LIVE_COALESCING, QUEUE_CONSUMERS, type JobChange, type JobEventDetail } from '../routes.js';
import { optionalEnv } from '../lib/env.js';
import { CONNECTION_SHARDS, keys } from '../table.js';
import { batchGet, batchWrite } from '../lib/batch.js';
import { conditionHeld, db, isConditionFailure, tableName } from '../lib/db.js';
import { sendMessages } from '../lib/queues.js';
import { connectionShardOf, pushToConnection, pushToConnections, subscriberIds, subscriptionKeys, type ConnectionItem } from '../lib/sockets.js';

/**
 * The live job feed: a job change is pushed only to the sockets subscribed to a topic it
 * touches (the grid, the job's category, the job's page, its parties' own lists), once per
 * socket, and several changes of one job within the coalescing window (LIVE_COALESCING) as one push of the
 * newest state. Every push is also kept per topic for CATCH_UP_SECONDS, so a socket that
 * reconnects is sent what it missed from its cursor instead of reading its lists again.
 */

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/** What browsers receive on the socket for a job change. */
export type JobFeedMessage = Extract<LiveMessage, { type: 'job.posted' | 'job.updated' | 'job.removed' }>;
type UnsentJobFeedMessage = JobFeedMessage extends infer M ? (M extends JobFeedMessage ? Omit<M, 'cursor'> : never) : never;

/** The queue messages of the fan-out (QUEUE_CONSUMERS.jobFeedShard). */
export type JobFeedQueueMessage =
  /** A job's coalescing window ended: push its pending change. */
  | { kind: 'flush'; jobId: string }
  /** Push `message` to the connections of `shard` subscribed to any of `topics`. */
  | { kind: 'shard'; shard: number; topics: string[]; message: JobFeedMessage };

/** The coalescing window (LIVE_COALESCING; the deploy sets it, tests may widen it for a busy machine). */
const coalescingWindowSeconds = () => Number(optionalEnv('liveCoalescingSeconds') ?? LIVE_COALESCING.defaultSeconds);
/** How far back a reconnecting socket catches up; older cursors read their lists again. */
export const CATCH_UP_SECONDS = 10 * 60;
/** Changes per topic a catch-up sends at most; a topic with more reads its list again. */
const CATCH_UP_LIMIT = 100;
/** How long a topic's watched mark outlasts the connection that set it (markWatched). */
const WATCHED_MARK_SLACK_SECONDS = 30 * 60;
/** A pending change whose flush never came (its message dead-lettered) is deleted after this. */
const PENDING_TTL_SECONDS = 24 * 3600;
/** How long a flush's claim on a pending change holds: the flushing function's own timeout, past which it no longer runs. */
const FLUSH_CLAIM_SECONDS = QUEUE_CONSUMERS.jobFeedShard.timeoutSeconds;

/** The server's topic of a user's own jobs; browsers ask for OWN_JOBS_TOPIC and get their own. */
const userTopic = (userId: string) => `user:${userId}`;
/** Topics browsers may ask for by name: no '#' (the key separator), bounded length. */
const NAMED_TOPIC = /^(?:feed|category:[^#]+|job:[A-Za-z0-9_-]+)$/;
/** Changes that take an open job off the grids (a card shows no applicant count, so `applications` leaves them alone). */
const LEAVES_GRID: readonly JobChange[] = ['assigned', 'cancelled', 'deleted'];

/** Whether a change takes the job out of browsers' lists: removed, or its poster suspended. */
const isRemoval = (detailType: JobEventType, { change }: JobEventDetail) => detailType === JOB_EVENT.removed || change === 'hidden';

export function toFeedMessage(detailType: JobEventType, detail: JobEventDetail): UnsentJobFeedMessage {
  const { job, change } = detail;
  // A suspended poster's job leaves the browsers' lists as a removed one does, and comes back as if new.
  if (isRemoval(detailType, detail)) return { type: 'job.removed', jobId: job.id };
  // Only the public summary goes out, never fields the bus carries for other consumers.
  const { paidAt: _paidAt, stripePaymentIntentId: _intent, refundReason: _reason, ...summary } = job;
  return { type: detailType === JOB_EVENT.posted || change === 'shown' ? 'job.posted' : 'job.updated', job: summary };
}

/** Changes a job's card does not show (its applications, its questions): they reach the job's page and its parties, not the grids. */
const OFF_THE_CARD: ReadonlyArray<JobChange | undefined> = ['applications', 'questions'];

/** The topics a job change touches. */
export function topicsOfJobChange(detailType: JobEventType, { job, change }: JobEventDetail): string[] {
  const topics = [jobTopic(job.id)];
  for (const party of [job.posterId, job.workerId]) if (party) topics.push(userTopic(party));
  const onGrids = detailType === JOB_EVENT.removed || (!OFF_THE_CARD.includes(change) && (job.status === 'open' || (change !== undefined && LEAVES_GRID.includes(change))));
  if (onGrids) topics.push(FEED_TOPIC, ...(job.category ? [categoryTopic(job.category)] : []));
  return topics;
}

/** The server's name of a topic a browser asked for, or undefined when it may not have it. */
export function serverTopic(requested: string, userId: string | null): string | undefined {
  if (requested === OWN_JOBS_TOPIC) return userId ? userTopic(userId) : undefined;
  return requested.length <= LIVE_LIMITS.topicLength && NAMED_TOPIC.test(requested) ? requested : undefined;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Keeps a job's change as its pending push unless a newer one is held (a removal always wins),
 * then sends the delayed message that flushes it. The first flush of a window pushes the
 * newest change and deletes it, so the later ones of the same window find nothing to do; a
 * flush message per change, rather than per window, means a failed send is retried with the
 * change (the rule's retry) and never leaves a change without its flush. The push goes to every
 * topic a change of the window touched (an edit may move a job between categories), and a job
 * posted within the window is still announced as posted.
 */
export async function holdJobChange(detailType: JobEventType, detail: JobEventDetail): Promise<void> {
  const removal = isRemoval(detailType, detail);
  const { type, ...content } = toFeedMessage(detailType, detail);
  const held = await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.pendingJobPush(detail.job.id),
        UpdateExpression: [
          `SET content = :content, updatedAt = :updatedAt, expiresAt = :expiresAt, ${removal ? 'messageType = :type, removed = :removed' : 'messageType = if_not_exists(messageType, :type)'}`,
          'ADD topics :topics, version :one',
        ].join(' '),
        // An older change arriving late must not replace a newer one, nor anything a removal.
        ConditionExpression: removal ? undefined : 'attribute_not_exists(pk) OR (attribute_not_exists(removed) AND updatedAt <= :updatedAt)',
        ExpressionAttributeValues: {
          ':content': content,
          ':type': type,
          ':topics': new Set(topicsOfJobChange(detailType, detail)),
          ':updatedAt': detail.job.updatedAt ?? new Date().toISOString(),
          ':expiresAt': nowSeconds() + PENDING_TTL_SECONDS,
          ':one': 1,
          ...(removal ? { ':removed': true } : {}),
        },
      }),
    ),
  );
  // Not held: a newer change is pending, and its flush pushes it.
  if (!held) return;
  await sendMessages('jobFeedQueueUrl', [{ kind: 'flush', jobId: detail.job.id } satisfies JobFeedQueueMessage], { delaySeconds: coalescingWindowSeconds() });
}

interface WatchedMark {
  expiresAt: number;
}

interface PendingPush {
  messageType: JobFeedMessage['type'];
  content: Omit<UnsentJobFeedMessage, 'type'>;
  topics: Set<string>;
  version: number;
}

/**
 * Ends a job's coalescing window: its newest change is kept for catch-up and handed to one
 * consumer per shard watching it, and deleted unless a newer one arrived meanwhile (whose own
 * flush pushes that). Nothing pending: an earlier flush of the window pushed it.
 */
export async function flushJobChange(jobId: string): Promise<void> {
  // Every change of a window sends a flush, and SQS may deliver them at once (or one twice): the
  // flush that claims the pending version pushes it, the others leave it. The claim expires
  // when no invocation can still hold it, so one left behind (its give-back failed, or its
  // function died) cannot keep the change from ever being pushed. The claim answers the
  // pending change itself, so the flush reads nothing before it.
  const now = nowSeconds();
  let pending: PendingPush;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.pendingJobPush(jobId),
        UpdateExpression: 'SET flushedVersion = version, flushClaimExpiresAt = :claimExpiresAt',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(flushedVersion) OR flushedVersion <> version OR attribute_not_exists(flushClaimExpiresAt) OR flushClaimExpiresAt < :now)',
        ExpressionAttributeValues: { ':claimExpiresAt': now + FLUSH_CLAIM_SECONDS, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    pending = Attributes as PendingPush;
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  try {
    await pushPending(jobId, pending);
  } catch (error) {
    // Give the claim back, so that this message's retry pushes the change.
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.pendingJobPush(jobId),
        UpdateExpression: 'REMOVE flushedVersion',
        ConditionExpression: 'flushedVersion = :version',
        ExpressionAttributeValues: { ':version': pending.version },
      }),
    ).catch(() => undefined);
    throw error;
  }
  await conditionHeld(
    db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.pendingJobPush(jobId),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': pending.version },
      }),
    ),
  );
}

/** Keeps a pending change for catch-up and hands it to one consumer per shard watching any of its topics, with those topics. */
async function pushPending(jobId: string, pending: PendingPush): Promise<void> {
  const topics = [...pending.topics];
  const cursor = `${new Date().toISOString()}#${jobId}`;
  const message = { type: pending.messageType, ...pending.content, cursor } as JobFeedMessage;
  const expiresAt = nowSeconds() + CATCH_UP_SECONDS;
  await batchWrite(topics.map((topic) => ({ PutRequest: { Item: { ...keys.topicChange(topic, cursor), jobId, message, expiresAt } } })));
  const shards = (await watchedShards(topics)).map(({ shard, topics: watched }): JobFeedQueueMessage => ({ kind: 'shard', shard, topics: watched, message }));
  if (shards.length) await sendMessages('jobFeedQueueUrl', shards);
}

/** The shards where any of these topics is marked watched (keys.watchedShard), each with those topics: one BatchGetItem. */
async function watchedShards(topics: readonly string[]): Promise<Array<{ shard: number; topics: string[] }>> {
  const pairs = topics.flatMap((topic) => Array.from({ length: CONNECTION_SHARDS }, (_, shard) => ({ topic, shard })));
  const marks = await batchGet<WatchedMark>(pairs.map(({ topic, shard }) => keys.watchedShard(topic, shard)));
  const now = nowSeconds();
  const byShard = new Map<number, string[]>();
  pairs.forEach(({ topic, shard }, i) => {
    // TTL deletes an expired mark only eventually; by then every subscription under it has ended.
    if ((marks[i]?.expiresAt ?? 0) > now) byShard.set(shard, [...(byShard.get(shard) ?? []), topic]);
  });
  return [...byShard].map(([shard, watched]) => ({ shard, topics: watched }));
}

/**
 * Marks each topic watched in the connection's shard until WATCHED_MARK_SLACK_SECONDS past the
 * connection's end, unless a mark already lasts past it: a busy topic's mark is rewritten about
 * once per slack, not at every subscribe (the refused condition still costs a write unit).
 */
async function markWatched(connectionId: string, topics: readonly string[], connectionExpiresAt: number): Promise<void> {
  const shard = connectionShardOf(connectionId);
  await Promise.all(
    topics.map(async (topic) => {
      await conditionHeld(
        db.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.watchedShard(topic, shard),
            UpdateExpression: 'SET expiresAt = :markedUntil',
            ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt < :connectionExpiresAt',
            ExpressionAttributeValues: { ':markedUntil': connectionExpiresAt + WATCHED_MARK_SLACK_SECONDS, ':connectionExpiresAt': connectionExpiresAt },
          }),
        ),
      );
    }),
  );
}

/** Pushes a job change to the connections of one shard subscribed to its topics, each once. */
export async function pushToShard(shard: number, topics: readonly string[], message: JobFeedMessage): Promise<number> {
  const subscribed = new Set<string>();
  for (const topic of topics) for await (const connectionId of subscriberIds(topic, shard)) subscribed.add(connectionId);
  return pushToConnections(subscribed, message);
}

/** The newest change of each job of these topics after `since`, oldest first, and whether that is all the socket missed. */
async function changesSince(topics: readonly string[], since: string): Promise<{ messages: JobFeedMessage[]; complete: boolean }> {
  const oldestKept = new Date(Date.now() - CATCH_UP_SECONDS * 1000).toISOString();
  let complete = since >= oldestKept;
  const newest = new Map<string, { cursor: string; message: JobFeedMessage }>();
  const pages = await Promise.all(
    topics.map((topic) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk > :since',
          ExpressionAttributeValues: { ':pk': keys.topicChanges(topic), ':since': since > oldestKept ? since : oldestKept },
          Limit: CATCH_UP_LIMIT,
        }),
      ),
    ),
  );
  for (const page of pages) {
    if (page.LastEvaluatedKey) complete = false;
    for (const item of page.Items ?? []) {
      const held = newest.get(item.jobId as string);
      if (!held || held.cursor < (item.sk as string)) newest.set(item.jobId as string, { cursor: item.sk as string, message: item.message as JobFeedMessage });
    }
  }
  const messages = [...newest.values()].sort((a, b) => a.cursor.localeCompare(b.cursor)).map(({ message }) => message);
  return { messages, complete };
}

const reply = (connectionId: string, message: LiveReply | JobFeedMessage) => pushToConnection(connectionId, Buffer.from(JSON.stringify(message)));

/**
 * Subscribes a connection to the topics it asked for (those it may have, up to
 * LIVE_LIMITS.topicsPerConnection in all): the connection item lists them, for its disconnect,
 * then one item per topic in the topic's partition of the connection's shard. With `since`, it
 * is first sent what it missed; then it is told where its next catch-up starts.
 */
export async function subscribe(connectionId: string, userId: string | null, requested: readonly string[], since?: string): Promise<void> {
  const accepted = requested.flatMap((name) => {
    const topic = serverTopic(name, userId);
    return topic ? [{ name, topic }] : [];
  });
  const topics = [...new Set(accepted.map(({ topic }) => topic))];
  const cursor = `${new Date().toISOString()}#`;
  let subscribed: typeof accepted = [];
  if (topics.length) {
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.connection(connectionId),
          UpdateExpression: 'ADD topics :topics',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(topics) OR size(topics) <= :room)',
          ExpressionAttributeValues: { ':topics': new Set(topics), ':room': LIVE_LIMITS.topicsPerConnection - topics.length },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const { expiresAt } = Attributes as ConnectionItem;
      await Promise.all([
        markWatched(connectionId, topics, expiresAt),
        batchWrite(subscriptionKeys(connectionId, topics).map((key) => ({ PutRequest: { Item: { ...key, expiresAt } } }))),
      ]);
      subscribed = accepted;
    } catch (error) {
      // A connection already gone, or one at its limit: nothing is subscribed, the reply says so.
      if (!isConditionFailure(error)) throw error;
    }
  }
  let complete = false;
  if (since !== undefined && subscribed.length) {
    const missed = await changesSince(topics, since);
    for (const message of missed.messages) await reply(connectionId, message);
    complete = missed.complete;
  }
  await reply(connectionId, { type: 'subscribed', topics: subscribed.map(({ name }) => name), cursor, complete });
}

/** Removes a connection's subscriptions to these topics. */
export async function unsubscribe(connectionId: string, userId: string | null, requested: readonly string[]): Promise<void> {
  const topics = [...new Set(requested.flatMap((name) => serverTopic(name, userId) ?? []))];
  if (!topics.length) return;
  await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.connection(connectionId),
        UpdateExpression: 'DELETE topics :topics',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':topics': new Set(topics) },
      }),
    ),
  );
  await batchWrite(subscriptionKeys(connectionId, topics).map((Key) => ({ DeleteRequest: { Key } })));
}

/** Answers a ping: no table access, one post (and the post itself keeps the connection from idling out). */
export const pong = (connectionId: string) => reply(connectionId, { type: 'pong' });
