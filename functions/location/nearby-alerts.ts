import type { JobCategory } from '../../shared/categories.js';
import type { NotificationPreferences } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { deliversBy, distanceMiles, RADIUS_OPTIONS } from '../../shared/notifications.js';
import { queryAll, tableName } from '../lib/db.js';
import { inBatches } from '../lib/concurrency.js';
import { coverRanges, type GeoPoint } from '../lib/geo-cells.js';
import { publishEvent } from '../lib/outbox.js';
import { retryLostRaces, TransactionRefused, transactWrite, type TransactItem } from '../lib/transactions.js';
import { EVENT_SOURCE, NOTIFICATION_EVENT } from '../routes.js';
import { keys } from '../table.js';
import { inQuietHours, localClock } from '../notifications/local-clock.js';
import { digestAddition } from './nearby-digest.js';
import { notificationItem, toNotification, type NewNotification, type StoredNotification } from '../notifications/notifications.js';
import { COVER_PRECISION, workersNear } from './worker-locations.js';

/** What the alert rules need of a worker (their profile as the geo index holds it). */
export interface AlertCandidate {
  id: string;
  latitude: number;
  longitude: number;
  /** Absent on locations saved before zones were recorded: the day and hours then run in UTC. */
  timeZone?: string;
  notificationPreferences: NotificationPreferences;
}

export interface AlertJob {
  id: string;
  title: string;
  location: string;
  category: JobCategory;
  posterId: string;
}

export type AlertDecision = { send: true; miles: number; day: string } | { send: false; reason: 'own job' | 'disabled' | 'out of range' | 'category' | 'quiet hours' };

/** Every rule but the daily limit (which the write enforces atomically), for one worker. */
export function decideAlert(worker: AlertCandidate, job: AlertJob, jobPoint: GeoPoint, now: Date): AlertDecision {
  const preferences = worker.notificationPreferences;
  if (worker.id === job.posterId) return { send: false, reason: 'own job' };
  if (!preferences.enabled) return { send: false, reason: 'disabled' };
  const miles = distanceMiles(worker, jobPoint);
  if (miles > preferences.radiusMiles) return { send: false, reason: 'out of range' };
  if (preferences.jobCategories.length > 0 && !preferences.jobCategories.includes(job.category)) return { send: false, reason: 'category' };
  const clock = localClock(now, worker.timeZone);
  if (inQuietHours(preferences.quietHours, clock.minuteOfDay)) return { send: false, reason: 'quiet hours' };
  return { send: true, miles, day: clock.day };
}

/** Queries run at once while finding workers: enough to overlap round trips, few enough for a small table. */
const QUERY_CONCURRENCY = 8;

/** Alert transactions run at once (each up to 100 items). */
const WRITE_CONCURRENCY = 4;

/**
 * The indexed workers whose own radius might reach the point: for each radius choice, the
 * geohash ranges covering that radius around the point (docs/data-model.md #32).
 */
export async function findAlertCandidates(point: GeoPoint): Promise<AlertCandidate[]> {
  const queries = RADIUS_OPTIONS.flatMap((radius) =>
    coverRanges(point, radius, COVER_PRECISION[radius]).map((range) => ({ radius, ...range })),
  );
  const pages = await inBatches(queries, QUERY_CONCURRENCY, ({ radius, partitionCell, from, to }) =>
    queryAll<AlertCandidate>({
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': workersNear(radius, partitionCell), ':from': from, ':to': to },
      ProjectionExpression: 'id, latitude, longitude, #zone, notificationPreferences',
      ExpressionAttributeNames: { '#zone': 'timeZone' },
    }),
  );
  return pages.flat();
}

/** Counter items outlive their day by a day (a zone can be a day ahead of UTC), then expire. */
const COUNTER_TTL_SECONDS = 3 * 24 * 60 * 60;

/** Up to four items per alert (marker, counter, notification, digest) in one transaction of at most 100. */
const ALERTS_PER_TRANSACTION = 25;

/** The largest hand-off event's detail: under EventBridge's 256 KB per event, with room for its envelope. */
const HANDOFF_MAX_BYTES = 200_000;

/**
 * One worker's alert of a job: nearby-job alerts and saved-search alerts (issue 46) alike. One
 * alert per job per worker, whichever rule comes first: both write the same marker.
 */
export interface JobAlert {
  worker: Pick<AlertCandidate, 'id' | 'timeZone'> & { notificationPreferences: Pick<NotificationPreferences, 'maxPerDay'> & { channels?: Partial<NotificationPreferences['channels']> } };
  miles: number;
  /** The worker's local day when the alert counts against their daily limit (nearby-job alerts); absent, it does not. */
  countedOn?: string;
  notification: { type: 'new_job_nearby' | 'saved_search_match'; title: string; message: string };
}

/**
 * One alert's writes: the (job, worker) marker, put only if absent (a redelivered event sends
 * nothing twice); for a counted alert, the worker's counter for their local day, raised only
 * below their daily limit; the notification; and, for a worker who wants it by email, the job
 * added to their next digest (functions/location/nearby-digest.ts).
 */
function alertWrites({ worker, miles, countedOn, notification: content }: JobAlert, job: AlertJob, now: Date) {
  const notification = notificationItem({
    userId: worker.id,
    jobId: job.id,
    ...content,
    metadata: { distance_miles: miles.toFixed(1) },
    createdAt: now.toISOString(),
  });
  const writes: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.nearbyAlert(worker.id, job.id), type: 'nearbyAlert', gsi3pk: keys.jobReferences(job.id), gsi3sk: `NEARBY#${worker.id}`, createdAt: now.toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(countedOn
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: keys.nearbyAlertCount(worker.id, countedOn),
              UpdateExpression: 'ADD alerts :one SET expiresAt = if_not_exists(expiresAt, :expires)',
              ConditionExpression: 'attribute_not_exists(alerts) OR alerts < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': worker.notificationPreferences.maxPerDay, ':expires': Math.floor(now.getTime() / 1000) + COUNTER_TTL_SECONDS },
            },
          },
        ]
      : []),
    { Put: { TableName: tableName(), Item: notification } },
  ];
  if (deliversBy(worker.notificationPreferences, content.type, 'email')) {
    const entry = { jobId: job.id, title: job.title, location: job.location, miles: Number(miles.toFixed(1)), alertedAt: now.toISOString() };
    writes.push(digestAddition(worker, content.type === 'saved_search_match' ? { ...entry, savedSearch: true } : entry, now));
  }
  return { notification, writes };
}

/**
 * Writes a group of alerts in one transaction. A refused condition (already alerted, daily
 * limit reached) cancels the whole transaction and names its items: those alerts are dropped
 * and the rest written again. Answers the notifications written.
 */
async function writeAlertGroup(alerts: readonly JobAlert[], job: AlertJob, now: Date): Promise<StoredNotification[]> {
  let remaining = alerts.map((alert) => alertWrites(alert, job, now));
  while (remaining.length > 0) {
    const group = remaining;
    try {
      await retryLostRaces(() => transactWrite(group.flatMap(({ writes }) => writes)));
      return group.map(({ notification }) => notification);
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      let index = 0;
      remaining = group.filter(({ writes }) => {
        const refused = writes.some((_, offset) => error.failed(index + offset));
        index += writes.length;
        return !refused;
      });
      // A refusal that names none of the alerts' items is not one this can resolve.
      if (remaining.length === group.length) throw error;
    }
  }
  return [];
}

/** The new notifications packed into as few hand-off events as their size allows (about 500 each). */
function handOffs(written: readonly StoredNotification[]): NewNotification[][] {
  const events: NewNotification[][] = [];
  let bytes = Infinity;
  for (const item of written) {
    const entry = { userId: item.userId, notification: toNotification(item) };
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (bytes + size > HANDOFF_MAX_BYTES) {
      events.push([]);
      bytes = 0;
    }
    events.at(-1)!.push(entry);
    bytes += size;
  }
  return events;
}

/**
 * Writes the alerts in transactions of many, several at once, then hands the notifications
 * written to live and web push in as few outbox events as fit (NOTIFICATION_EVENT.createdInBulk:
 * the consumers run once per event, not once per alert). Answers how many were written.
 */
export async function sendJobAlerts(alerts: readonly JobAlert[], job: AlertJob, now: Date): Promise<number> {
  const groups: JobAlert[][] = [];
  for (let start = 0; start < alerts.length; start += ALERTS_PER_TRANSACTION) groups.push(alerts.slice(start, start + ALERTS_PER_TRANSACTION));
  const written = (await inBatches(groups, WRITE_CONCURRENCY, (group) => writeAlertGroup(group, job, now))).flat();
  for (const notifications of handOffs(written)) await publishEvent(EVENT_SOURCE.notifications, NOTIFICATION_EVENT.createdInBulk, { notifications });
  return written.length;
}

export interface AlertRun {
  /** Index items read: the cost the geohash cover is judged by. */
  itemsRead: number;
  /** Workers within their own radius of the job. */
  inRange: number;
  sent: number;
}

/** Alerts every worker the rules allow about a job that just opened at `point`. */
export async function alertWorkersNear(job: AlertJob, point: GeoPoint, now = new Date()): Promise<AlertRun> {
  const found = await findAlertCandidates(point);
  // Once each: one transaction may not write a worker's items twice.
  const candidates = [...new Map(found.map((worker) => [worker.id, worker])).values()];
  const decisions = candidates.map((worker) => ({ worker, decision: decideAlert(worker, job, point, now) }));
  const inRange = decisions.filter(({ decision }) => decision.send || decision.reason !== 'out of range').length;
  const toSend = decisions.flatMap(({ worker, decision }): JobAlert[] =>
    decision.send
      ? [
          {
            worker,
            miles: decision.miles,
            countedOn: decision.day,
            notification: { type: 'new_job_nearby', title: MSG.notifications.nearbyTitle, message: MSG.notifications.nearbyMessage(job.title, decision.miles.toFixed(1), job.location) },
          },
        ]
      : [],
  );
  return { itemsRead: found.length, inRange, sent: await sendJobAlerts(toSend, job, now) };
}
