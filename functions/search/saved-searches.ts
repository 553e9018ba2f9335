import { randomUUID } from 'node:crypto';
import type { SavedSearch } from '../../shared/api.js';
import type { JobCategory } from '../../shared/categories.js';
import { MSG } from '../../shared/messages.js';
import { distanceMiles } from '../../shared/notifications.js';
import { MAX_SAVED_SEARCHES, SEARCH_RADIUS_MILES, type SearchRadius } from '../../shared/search.js';
import { batchGet } from '../lib/batch.js';
import { inBatches } from '../lib/concurrency.js';
import { queryAll, tableName } from '../lib/db.js';
import { badRequest, forbidden, notFound } from '../lib/errors.js';
import { coverRanges, PARTITION_PRECISION, pointCell, type GeoPoint } from '../lib/geo-cells.js';
import { TransactionRefused, transactWrite } from '../lib/transactions.js';
import { keys } from '../table.js';
import type { JobItem } from '../jobs/jobs.js';
import { getProfile, type ProfileItem } from '../people/profiles.js';
import { sendJobAlerts, type JobAlert } from '../location/nearby-alerts.js';
import { areaOf, searchEntryOf } from './search-documents.js';
import { JobSearchIndex } from './search-engine.js';

/**
 * Saved searches and their alerts (issue 46, docs/decisions/0325): a worker keeps up to
 * MAX_SAVED_SEARCHES searches (words, a category, a radius around a place); a job that opens
 * and matches one is told to them once, through nearby-job alerts' bounded fan-out.
 */

/** A saved search as stored: the answer's fields, its centre, and its place in the geo index. */
interface SavedSearchItem extends SavedSearch {
  workerId: string;
  latitude: number;
  longitude: number;
}

export const toSavedSearch = ({ id, text, category, radiusMiles, createdAt }: SavedSearchItem): SavedSearch => ({ id, text, category, radiusMiles, createdAt });

export interface NewSavedSearch {
  text: string;
  category: JobCategory | null;
  radiusMiles: number;
  latitude?: number;
  longitude?: number;
}

/** Saves a search around the worker's saved location (or the browser's, given); refused past the limit, atomically. */
export async function saveSearch(workerId: string, input: NewSavedSearch): Promise<SavedSearch> {
  const profile = await getProfile(workerId);
  if (profile?.role !== 'worker') throw forbidden(MSG.search.onlyWorkersSave);
  const latitude = input.latitude ?? profile.latitude;
  const longitude = input.longitude ?? profile.longitude;
  if (latitude === undefined || longitude === undefined) throw badRequest(MSG.search.locationNeeded);
  const cell = pointCell({ latitude, longitude });
  const item: SavedSearchItem = {
    id: randomUUID(),
    workerId,
    text: input.text,
    category: input.category,
    radiusMiles: input.radiusMiles,
    latitude,
    longitude,
    createdAt: new Date().toISOString(),
  };
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.savedSearch(workerId, item.id),
            type: 'savedSearch',
            ...item,
            gsi1pk: keys.savedSearchesInCell(item.radiusMiles, cell.slice(0, PARTITION_PRECISION)),
            gsi1sk: `${cell}#${workerId}#${item.id}`,
          },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.savedSearchCount(workerId),
          UpdateExpression: 'ADD searches :one',
          ConditionExpression: 'attribute_not_exists(searches) OR searches < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_SAVED_SEARCHES },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused && error.failed(1)) throw badRequest(MSG.search.tooManySavedSearches);
    throw error;
  }
  return toSavedSearch(item);
}

/** The worker's saved searches, oldest first (one Query of their partition). */
export async function listSavedSearches(workerId: string): Promise<SavedSearch[]> {
  const items = await queryAll<SavedSearchItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPartition(workerId), ':prefix': keys.savedSearchPrefix() },
  });
  return items.map(toSavedSearch).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Removes one of the worker's saved searches, and its place in their count. */
export async function removeSavedSearch(workerId: string, searchId: string): Promise<void> {
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: keys.savedSearch(workerId, searchId), ConditionExpression: 'attribute_exists(pk)' } },
      { Update: { TableName: tableName(), Key: keys.savedSearchCount(workerId), UpdateExpression: 'ADD searches :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused && error.failed(0)) throw notFound(MSG.search.savedSearchNotFound);
    throw error;
  }
}

/** How fine each radius's cover is: as nearby-job alerts' (functions/location/worker-locations.ts COVER_PRECISION), coarser for 50 miles. */
const COVER_PRECISION: Record<SearchRadius, number> = { 5: 5, 10: 5, 25: 5, 50: 4 };

/** Queries run at once while finding saved searches. */
const QUERY_CONCURRENCY = 8;

/** The saved searches whose radius may reach `point`: per radius choice, the geohash ranges covering it. */
async function savedSearchesNear(point: GeoPoint): Promise<SavedSearchItem[]> {
  const queries = SEARCH_RADIUS_MILES.flatMap((radius) => coverRanges(point, radius, COVER_PRECISION[radius]).map((range) => ({ radius, ...range })));
  const pages = await inBatches(queries, QUERY_CONCURRENCY, ({ radius, partitionCell, from, to }) =>
    queryAll<SavedSearchItem>({
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.savedSearchesInCell(radius, partitionCell), ':from': from, ':to': to },
    }),
  );
  return pages.flat();
}

export interface SavedSearchRun {
  /** Saved searches read from the geo index: the cost of the run. */
  itemsRead: number;
  /** Those the job matched (within the radius, of the category, with every word). */
  matched: number;
  sent: number;
}

/**
 * Alerts the workers whose saved searches a job that just opened at `point` matches: within the
 * search's radius of its centre (measured to the job's area, as searches are), of its category,
 * and with every word found by the search engine as a search finds it. One alert per worker,
 * however many of their searches match; none to the job's poster.
 */
export async function alertSavedSearches(job: JobItem, point: GeoPoint, now = new Date()): Promise<SavedSearchRun> {
  const entry = searchEntryOf(job);
  if (!entry) return { itemsRead: 0, matched: 0, sent: 0 };
  const area = areaOf(point);
  const candidates = await savedSearchesNear(area);
  const engine = new JobSearchIndex();
  engine.put(entry.document);
  const matches = candidates.filter(
    (search) =>
      search.workerId !== job.posterId &&
      distanceMiles(search, area) <= search.radiusMiles &&
      (search.category === null || search.category === job.category) &&
      (search.text === '' || engine.match(search.text).length > 0),
  );
  const byWorker = new Map(matches.map((search) => [search.workerId, search]));
  const workers = (await batchGet<ProfileItem>([...byWorker.keys()].map((id) => keys.profile(id)))).filter((profile): profile is ProfileItem => profile !== undefined);
  const alerts = workers.map((worker): JobAlert => {
    const search = byWorker.get(worker.id)!;
    return {
      worker,
      miles: distanceMiles(search, area),
      notification: { type: 'saved_search_match', title: MSG.search.alertTitle, message: MSG.search.alertMessage(job.title, job.location, MSG.search.describe(search)) },
    };
  });
  return { itemsRead: candidates.length, matched: matches.length, sent: await sendJobAlerts(alerts, { id: job.id, title: job.title, location: job.location, category: job.category, posterId: job.posterId }, now) };
}
