import type { JobCategory } from '../../shared/categories.js';
import type { NotificationPreferences } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { distanceMiles, RADIUS_OPTIONS } from '../../shared/notifications.js';
import { queryAll, tableName } from '../lib/db.js';
import { coverRanges, type GeoPoint } from '../lib/geo-cells.js';
import { retryLostRaces, TransactionRefused, transactWrite } from '../lib/transactions.js';
import { keys } from '../table.js';
import { notificationItem, notificationWrites } from './notifications.js';
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

/** The calendar day (YYYY-MM-DD) and minute of the day at `now` in the zone. */
export function localClock(now: Date, timeZone = 'UTC'): { day: string; minuteOfDay: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the minute falls in the quiet hours; a start after the end spans midnight (22:00–08:00). */
export function inQuietHours(quietHours: NotificationPreferences['quietHours'], minuteOfDay: number): boolean {
  if (!quietHours.enabled) return false;
  const start = minutesOf(quietHours.start);
  const end = minutesOf(quietHours.end);
  if (start === end) return false;
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}

/** How many minutes of quiet hours are left at this minute of the day (0 outside them). */
export function quietMinutesLeft(quietHours: NotificationPreferences['quietHours'], minuteOfDay: number): number {
  if (!inQuietHours(quietHours, minuteOfDay)) return 0;
  const end = minutesOf(quietHours.end);
  return (end - minuteOfDay + 24 * 60) % (24 * 60);
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

async function inBatches<T, R>(inputs: readonly T[], size: number, run: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < inputs.length; start += size) results.push(...(await Promise.all(inputs.slice(start, start + size).map(run))));
  return results;
}

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

/**
 * Writes one `new_job_nearby` notification (and its live push, through the outbox), in one
 * transaction with the (job, worker) marker
 * (put only if absent: a redelivered event sends nothing twice) and the worker's counter for
 * their local day (raised only below their daily limit). Answers whether it was sent.
 */
export async function sendNearbyAlert(worker: AlertCandidate, job: AlertJob, decision: { miles: number; day: string }, now: Date): Promise<boolean> {
  const notification = notificationItem({
    userId: worker.id,
    jobId: job.id,
    type: 'new_job_nearby',
    title: MSG.notifications.nearbyTitle,
    message: MSG.notifications.nearbyMessage(job.title, decision.miles.toFixed(1), job.location),
    metadata: { distance_miles: decision.miles.toFixed(1) },
  });
  try {
    await retryLostRaces(() =>
      transactWrite([
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.nearbyAlert(worker.id, job.id), type: 'nearbyAlert', gsi3pk: keys.jobReferences(job.id), gsi3sk: `NEARBY#${worker.id}`, createdAt: now.toISOString() },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.nearbyAlertCount(worker.id, decision.day),
            UpdateExpression: 'ADD alerts :one SET expiresAt = if_not_exists(expiresAt, :expires)',
            ConditionExpression: 'attribute_not_exists(alerts) OR alerts < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': worker.notificationPreferences.maxPerDay, ':expires': Math.floor(now.getTime() / 1000) + COUNTER_TTL_SECONDS },
          },
        },
        ...notificationWrites(notification),
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) return false;
    throw error;
  }
  return true;
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
  const candidates = await findAlertCandidates(point);
  const decisions = candidates.map((worker) => ({ worker, decision: decideAlert(worker, job, point, now) }));
  const inRange = decisions.filter(({ decision }) => decision.send || decision.reason !== 'out of range').length;
  const toSend = decisions.flatMap(({ worker, decision }) => (decision.send ? [{ worker, decision }] : []));
  const sent = await inBatches(toSend, QUERY_CONCURRENCY, ({ worker, decision }) => sendNearbyAlert(worker, job, decision, now));
  return { itemsRead: candidates.length, inRange, sent: sent.filter(Boolean).length };
}
