import { isDeepStrictEqual } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import ngeohash from 'ngeohash';
import { inBatches } from '../lib/concurrency.js';
import { db, isConditionFailure, queryAll, tableName } from '../lib/db.js';
import type { GeoPoint } from '../lib/geo-cells.js';
import { keys, timeOrdered } from '../table.js';
import { getJob, jobCardOf, type JobCardItem, type JobItem } from '../jobs/jobs.js';
import type { SearchDocument } from './search-engine.js';

/**
 * The search engine's source (issue 46, docs/data-model.md "Search document"): one item per
 * open job with what the engine indexes and what its card shows, written by the search-index
 * rule on every job change. A search function reads them all when it starts, then only the
 * ones changed since (GSI1, by hour of change), so it stays current at the cost of one small
 * Query a search.
 */

/** How precise a job's area is: a geohash of 6 characters, a cell of about 1.2 by 0.6 km. */
const AREA_PRECISION = 6;

/** What the search function holds of an open job. */
export interface SearchEntry {
  document: SearchDocument;
  card: JobCardItem;
  /**
   * The centre of the job's cell: where its distance is measured from and its pin is placed.
   * Never the job's coordinates, which stay private (docs/decisions/0005): distances from many
   * places would otherwise locate the address.
   */
  area?: GeoPoint;
}

/** A search document as stored; without an entry, the tombstone of a job no longer open. */
export interface StoredSearchDocument {
  jobId: string;
  /** When it was written: a search function applies a job's changes in this order. */
  changedAt: string;
  entry?: SearchEntry;
}

/** A tombstone outlives by far the window a running search function reads changes in (CHANGES_KEPT_HOURS). */
const TOMBSTONE_TTL_SECONDS = 2 * 24 * 60 * 60;

/** How far back a running search function may read changes: beyond, it reads every document again. */
export const CHANGES_KEPT_HOURS = 12;

export function areaOf(point: GeoPoint): GeoPoint {
  const { latitude, longitude } = ngeohash.decode(ngeohash.encode(point.latitude, point.longitude, AREA_PRECISION));
  return { latitude, longitude };
}

/** The entry of a job as it is now: none unless it is open and its poster not suspended. */
export function searchEntryOf(job: JobItem | undefined): SearchEntry | undefined {
  if (job?.status !== 'open' || job.posterSuspended) return undefined;
  return {
    document: {
      id: job.id,
      title: job.title,
      tags: [job.category, ...job.skills].join(' '),
      description: job.description,
      location: job.location,
      category: job.category,
      posterId: job.posterId,
      createdAt: job.createdAt,
    },
    card: jobCardOf(job),
    ...(job.latitude !== undefined && job.longitude !== undefined ? { area: areaOf({ latitude: job.latitude, longitude: job.longitude }) } : {}),
  };
}

const hourOf = (time: string) => time.slice(0, 13);

/** A stamp after `previous`: a job's changes keep their order though two writers' clocks may not. */
function stampAfter(previous: string | undefined, now = new Date()): string {
  if (previous === undefined || now.toISOString() > previous) return now.toISOString();
  return new Date(Date.parse(previous) + 1).toISOString();
}

async function storedDocument(jobId: string): Promise<StoredSearchDocument | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.searchDocument(jobId), ConsistentRead: true }));
  return Item as StoredSearchDocument | undefined;
}

/**
 * Brings a job's search document in line with the job as it is now. It reads the current job
 * rather than trusting the event, so a late or repeated event is harmless; two syncs of one job
 * can run at once (EventBridge delivers in parallel), so each write is conditional on the
 * document it read: the one that loses reads both again, and the last to write wrote the job
 * as it is.
 */
export async function syncSearchDocument(jobId: string): Promise<'written' | 'removed' | 'unchanged'> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [job, stored] = await Promise.all([getJob(jobId, { consistentRead: true }), storedDocument(jobId)]);
    const entry = searchEntryOf(job);
    if (isDeepStrictEqual(stored?.entry, entry)) return 'unchanged';
    const changedAt = stampAfter(stored?.changedAt);
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.searchDocument(jobId),
            type: 'searchDocument',
            jobId,
            changedAt,
            gsi1pk: keys.searchChanges(hourOf(changedAt)),
            gsi1sk: timeOrdered(changedAt, jobId),
            ...(entry ? { entry } : { expiresAt: Math.floor(Date.parse(changedAt) / 1000) + TOMBSTONE_TTL_SECONDS }),
          },
          ConditionExpression: stored ? 'changedAt = :read' : 'attribute_not_exists(pk)',
          ...(stored ? { ExpressionAttributeValues: { ':read': stored.changedAt } } : {}),
        }),
      );
      return entry ? 'written' : 'removed';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  // Changing faster than it can be written: EventBridge runs the rule again.
  throw new Error(`The search document of job ${jobId} kept changing`);
}

const PROJECTION = { ProjectionExpression: 'jobId, changedAt, entry' };

/** Every open job's document: what a search function indexes when it starts (one Query per shard, paged, in parallel). */
export async function readSearchDocuments(): Promise<StoredSearchDocument[]> {
  const { partitions } = keys.searchDocuments();
  const shards = await inBatches(partitions, partitions.length, (partition) =>
    queryAll<StoredSearchDocument>({
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'attribute_exists(entry)',
      ExpressionAttributeValues: { ':pk': partition },
      ...PROJECTION,
    }),
  );
  return shards.flat();
}

/** The documents (and tombstones) changed after `since`, oldest first: one Query per hour of change, usually one. */
export async function readSearchChanges(since: string, now = new Date()): Promise<StoredSearchDocument[]> {
  const hours: string[] = [];
  for (let hour = Date.parse(`${hourOf(since)}:00:00.000Z`); hour <= now.getTime(); hour += 60 * 60 * 1000) hours.push(hourOf(new Date(hour).toISOString()));
  const pages = await Promise.all(
    hours.map((hour) =>
      queryAll<StoredSearchDocument>({
        IndexName: 'GSI1',
        KeyConditionExpression: 'gsi1pk = :hour AND gsi1sk > :since',
        ExpressionAttributeValues: { ':hour': keys.searchChanges(hour), ':since': since },
        ...PROJECTION,
      }),
    ),
  );
  return pages.flat();
}
