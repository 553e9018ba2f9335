import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DAILY_LIMIT_OPTIONS, deliversBy } from '../../shared/notifications.js';
import { batchGet } from '../lib/batch.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { env, optionalEnv } from '../lib/env.js';
import { logger } from '../lib/logger.js';
import { sendEmail } from '../lib/mail.js';
import type { TransactItem } from '../lib/transactions.js';
import { unsubscribeToken } from '../lib/unsubscribe-tokens.js';
import { keys, shardOf } from '../table.js';
import { emailSuppression } from '../notifications/email-suppressions.js';
import { inQuietHours, localClock } from '../notifications/local-clock.js';
import { digestTypeOf, renderDigestEmail, type DigestEntry } from '../notifications/notification-email.js';
import { getProfile, type StoredNotificationPreferences } from '../people/profiles.js';

/**
 * The nearby-jobs email digest (issue 25; docs/decisions/0240-nearby-jobs-digest-when.md). Nearby jobs
 * are never emailed one by one: each alert of a worker who wants them by email adds the job to
 * their one digest item, and an hourly run emails the digests that are due — at the first run
 * from DIGEST_LOCAL_TIME in the worker's zone after the first job waiting, outside their quiet
 * hours, at most once per calendar day of their zone, with at most their daily limit of jobs.
 */

/** When a day's digest is due, in the worker's own zone: the evening, after a day's jobs were posted. */
export const DIGEST_LOCAL_TIME = { hour: 18, minute: 0 } as const;

/** Partitions of the due-digests index: a worker's digest always lands in the same one. */
export const DIGEST_SHARDS = 16;

/** A job waiting for the worker's next digest; a saved search's match (`savedSearch`) is in it as the worker chose for saved searches, whatever their nearby-alert choices. */
export interface DigestJob extends DigestEntry {
  alertedAt: string;
}

/** A worker's digest item as the run reads it. */
export interface PendingDigest {
  workerId: string;
  jobs: DigestJob[];
  /** When it is due: the first DIGEST_LOCAL_TIME in the worker's zone at or after the first job waiting. */
  dueAt: string;
  /** When the last digest was sent (absent before the first). */
  lastSentAt?: string;
}

/** What the rules need of the worker at sending time. */
export interface DigestReader {
  timeZone?: string;
  notificationPreferences: StoredNotificationPreferences;
}

export type DigestPlan =
  | { send: true; jobs: DigestJob[] }
  /** Nothing to send now; `drop`: the waiting jobs are cleared (nothing of them will ever be sent). */
  | { send: false; drop: boolean; reason: 'not wanted' | 'none in range' | 'not due' | 'quiet hours' | 'sent today' };

const MINUTES_PER_DAY = 24 * 60;

/** The first DIGEST_LOCAL_TIME in the zone at or after `now` (to the minute). */
export function digestDueAt(now: Date, timeZone?: string): Date {
  const target = DIGEST_LOCAL_TIME.hour * 60 + DIGEST_LOCAL_TIME.minute;
  const minutesAhead = (target - localClock(now, timeZone).minuteOfDay + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const minute = new Date(now);
  minute.setUTCSeconds(0, 0);
  return new Date(minute.getTime() + minutesAhead * 60_000);
}

/**
 * Whether and what to email now. Asked at sending time, so the worker's current choices count:
 * email for nearby jobs (and nearby alerts at all), their radius (a job farther than it now is
 * left out), email for saved searches' matches (their own radius was the search's), their quiet hours and their daily limit (the digest holds at most that many jobs,
 * newest first), in their zone; and one digest per calendar day of that zone.
 */
export function planDigest(pending: Pick<PendingDigest, 'jobs' | 'dueAt' | 'lastSentAt'>, worker: DigestReader, now: Date): DigestPlan {
  const preferences = worker.notificationPreferences;
  const nearbyWanted = preferences.enabled && deliversBy(preferences, 'new_job_nearby', 'email');
  const savedSearchesWanted = deliversBy(preferences, 'saved_search_match', 'email');
  if (!nearbyWanted && !(savedSearchesWanted && pending.jobs.some((job) => job.savedSearch))) return { send: false, drop: true, reason: 'not wanted' };
  const inRange = pending.jobs.filter((job) => (job.savedSearch ? savedSearchesWanted : nearbyWanted && job.miles <= preferences.radiusMiles));
  if (inRange.length === 0) return { send: false, drop: true, reason: 'none in range' };
  if (now.getTime() < Date.parse(pending.dueAt)) return { send: false, drop: false, reason: 'not due' };
  const clock = localClock(now, worker.timeZone);
  if (inQuietHours(preferences.quietHours, clock.minuteOfDay)) return { send: false, drop: false, reason: 'quiet hours' };
  if (pending.lastSentAt && localClock(new Date(pending.lastSentAt), worker.timeZone).day === clock.day) return { send: false, drop: false, reason: 'sent today' };
  const newestFirst = [...inRange].sort((a, b) => b.alertedAt.localeCompare(a.alertedAt));
  return { send: true, jobs: newestFirst.slice(0, preferences.maxPerDay) };
}

/** The index key of a worker's digest while jobs wait in it. */
const dueIndexKey = (workerId: string) => keys.nearbyDigestsDue(shardOf(workerId, DIGEST_SHARDS));

/**
 * The update that adds a job to the worker's digest, for the alert's transaction. The due time
 * is set by the first job waiting only (if_not_exists): later jobs join the same digest.
 */
export function digestAddition(worker: { id: string; timeZone?: string }, job: DigestJob, now: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.nearbyDigest(worker.id),
      UpdateExpression: 'SET #type = :type, workerId = :worker, jobs = list_append(if_not_exists(jobs, :none), :job), gsi2pk = :shard, gsi2sk = if_not_exists(gsi2sk, :due)',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'nearbyDigest',
        ':worker': worker.id,
        ':none': [],
        ':job': [job],
        ':shard': dueIndexKey(worker.id),
        ':due': `${digestDueAt(now, worker.timeZone).toISOString()}#${worker.id}`,
      },
    },
  };
}

interface DigestItem {
  workerId: string;
  jobs: DigestJob[];
  gsi2sk: string;
  lastSentAt?: string;
}

/** The digests due at `now` in one shard: the index sort key starts with the due time. */
async function dueDigests(shard: number, now: Date): Promise<PendingDigest[]> {
  const due: PendingDigest[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI2',
        // '$' sorts right after the '#' that ends the time: every key due at or before now.
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :upTo',
        ExpressionAttributeValues: { ':pk': keys.nearbyDigestsDue(shard), ':upTo': `${now.toISOString()}$` },
        ExclusiveStartKey,
      }),
    );
    for (const item of (page.Items ?? []) as DigestItem[]) {
      due.push({ workerId: item.workerId, jobs: item.jobs, dueAt: item.gsi2sk.split('#')[0]!, ...(item.lastSentAt ? { lastSentAt: item.lastSentAt } : {}) });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return due;
}

/**
 * Takes the waiting jobs out of the digest (and it out of the due index), on condition that no
 * job joined since it was read (that one waits for the next run); `sentAt` records a digest sent.
 * Answers whether it held.
 */
async function clearDigest(digest: PendingDigest, sentAt?: Date): Promise<boolean> {
  return conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.nearbyDigest(digest.workerId),
        UpdateExpression: `REMOVE jobs, gsi2pk, gsi2sk${sentAt ? ' SET lastSentAt = :sentAt' : ''}`,
        ConditionExpression: 'size(jobs) = :count',
        ExpressionAttributeValues: { ':count': digest.jobs.length, ...(sentAt ? { ':sentAt': sentAt.toISOString() } : {}) },
      }),
    ),
  );
}

/**
 * The most jobs a held digest keeps (twice the largest daily limit): a digest held for days (quiet
 * hours that the hourly runs keep missing) must not grow toward DynamoDB's item size, which would
 * refuse the alert transactions it is part of.
 */
const MAX_WAITING_JOBS = 2 * Math.max(...DAILY_LIMIT_OPTIONS);

/** Keeps only the newest `count` waiting jobs, on condition that none joined since they were read. */
async function keepNewest(digest: PendingDigest, count: number): Promise<void> {
  const newest = [...digest.jobs].sort((a, b) => b.alertedAt.localeCompare(a.alertedAt)).slice(0, count);
  await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.nearbyDigest(digest.workerId),
        UpdateExpression: 'SET jobs = :newest',
        ConditionExpression: 'size(jobs) = :count',
        ExpressionAttributeValues: { ':newest': newest, ':count': digest.jobs.length },
      }),
    ),
  );
}

/** Puts the jobs of a digest SES refused back, due at once, with the last sending time as before. */
async function restoreDigest(digest: PendingDigest): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.nearbyDigest(digest.workerId),
      UpdateExpression: `SET jobs = list_append(:jobs, if_not_exists(jobs, :none)), gsi2pk = :shard, gsi2sk = :due${digest.lastSentAt ? ', lastSentAt = :last' : ' REMOVE lastSentAt'}`,
      ExpressionAttributeValues: {
        ':jobs': digest.jobs,
        ':none': [],
        ':shard': dueIndexKey(digest.workerId),
        ':due': `${digest.dueAt}#${digest.workerId}`,
        ...(digest.lastSentAt ? { ':last': digest.lastSentAt } : {}),
      },
    }),
  );
}

export type DigestOutcome = 'sent' | 'held' | 'dropped' | 'changed meanwhile' | 'suppressed' | 'no such user';

/** What the digest reads of a job at sending time. */
interface StoredJobState {
  status: string;
  deletingAt?: string;
  posterSuspended?: boolean;
}

/**
 * The waiting jobs a worker can still apply to: open, not being deleted, not hidden with their
 * suspended poster. A job taken, cancelled or deleted since its alert is left out of the email.
 */
async function stillOpen(jobs: DigestJob[]): Promise<DigestJob[]> {
  const stored = await batchGet<StoredJobState>(jobs.map((job) => keys.job(job.jobId)));
  return jobs.filter((_, index) => {
    const job = stored[index];
    return job?.status === 'open' && !job.deletingAt && !job.posterSuspended;
  });
}

/**
 * Emails one due digest if the rules allow it now. The jobs are taken out before SES is asked
 * (a second run cannot send them again) and put back if SES refuses.
 */
async function deliverDigest(digest: PendingDigest, now: Date): Promise<DigestOutcome> {
  const profile = await getProfile(digest.workerId);
  if (!profile) {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.nearbyDigest(digest.workerId) }));
    return 'no such user';
  }
  let plan = planDigest(digest, profile, now);
  // Only a digest about to be sent reads its jobs; none still open drops it like none in range.
  if (plan.send) plan = planDigest({ ...digest, jobs: await stillOpen(digest.jobs) }, profile, now);
  if (!plan.send) {
    if (!plan.drop) {
      if (digest.jobs.length > MAX_WAITING_JOBS) await keepNewest(digest, MAX_WAITING_JOBS);
      return 'held';
    }
    return (await clearDigest(digest)) ? 'dropped' : 'changed meanwhile';
  }
  // SES reported the address as bouncing or complaining: the jobs are dropped, as the mailer drops its emails.
  if (await emailSuppression(profile.email)) return (await clearDigest(digest)) ? 'suppressed' : 'changed meanwhile';
  if (!(await clearDigest(digest, now))) return 'changed meanwhile';
  const email = renderDigestEmail(plan.jobs, {
    siteOrigin: env('mailLinkOrigin'),
    apiUrl: env('apiUrl'),
    unsubscribeToken: await unsubscribeToken({ userId: profile.id, type: digestTypeOf(plan.jobs) }),
  });
  try {
    await sendEmail({ to: profile.email, ...email });
  } catch (error) {
    await restoreDigest(digest);
    throw error;
  }
  return 'sent';
}

/** Digests handled at once: SES's sending rate, not the table, is the limit here. */
const DIGEST_CONCURRENCY = 8;

/** The hourly run: every due digest of every shard, each emailed or held by its worker's rules. */
export async function sendDueDigests(now = new Date()): Promise<Partial<Record<DigestOutcome | 'failed', number>>> {
  const counts: Partial<Record<DigestOutcome | 'failed', number>> = {};
  if (!optionalEnv('mailFromAddress')) return counts;
  const due = (await Promise.all(Array.from({ length: DIGEST_SHARDS }, (_, shard) => dueDigests(shard, now)))).flat();
  for (let start = 0; start < due.length; start += DIGEST_CONCURRENCY) {
    const outcomes = await Promise.allSettled(due.slice(start, start + DIGEST_CONCURRENCY).map((digest) => deliverDigest(digest, now)));
    for (const outcome of outcomes) {
      const key = outcome.status === 'fulfilled' ? outcome.value : 'failed';
      counts[key] = (counts[key] ?? 0) + 1;
      if (outcome.status === 'rejected') logger.error('nearby digest failed', { error: outcome.reason as unknown });
    }
  }
  return counts;
}
