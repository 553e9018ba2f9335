import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import ngeohash from 'ngeohash';
import { conditionHeld, db, tableName } from '../lib/db.js';
import type { GeoPoint } from '../lib/geo-cells.js';
import { MSG } from '../../shared/messages.js';
import { GeocodingFailed, createGeocoder } from '../lib/geocoder.js';
import { logger } from '../lib/logger.js';
import { keys } from '../table.js';
import type { JobItem } from './jobs.js';

const geocoder = createGeocoder();

/** Precision 7 (~150 m): fine enough for any radius the preferences offer. */
export const GEOHASH_PRECISION = 7;

/**
 * The job's coordinates: the stored ones when its current address was geocoded already,
 * otherwise geocoded now and stored (best effort, spec 1 §5: null when the address is not
 * found). The write is conditional on the address still being the one geocoded, so a late
 * event cannot overwrite a newer edit. Both the geocoding rule and the nearby-job alerts,
 * which run on the same event, call this: whichever runs first stores the point.
 */
export async function locateJob(job: JobItem, options: { retryWhenUnavailable?: boolean } = {}): Promise<GeoPoint | null> {
  if (job.geocodedAddress === job.fullAddress && job.latitude !== undefined && job.longitude !== undefined) {
    return { latitude: job.latitude, longitude: job.longitude };
  }
  const [street, ...rest] = job.fullAddress.split(', ');
  const [city = '', state = ''] = rest.length >= 2 ? rest.slice(-2) : job.location.split(', ');
  let point: GeoPoint | null;
  try {
    point = await geocoder.geocode({ street, city, state });
  } catch (error) {
    // Best effort (spec 1 §5). The geocoding rule, which runs only when the job is posted or
    // edited, throws: EventBridge tries it again (its retry policy) while the service is down.
    if (!(error instanceof GeocodingFailed) || options.retryWhenUnavailable) throw error;
    logger.warn(error.message, { jobId: job.id, error: error.cause });
    return null;
  }
  if (!point) {
    logger.info(MSG.location.addressNotFound, { jobId: job.id });
    // Told to its poster on the job's page, while the address stays the one not found.
    await conditionHeld(
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.job(job.id),
          UpdateExpression: 'SET addressNotFound = :address',
          ConditionExpression: 'fullAddress = :address',
          ExpressionAttributeValues: { ':address': job.fullAddress },
        }),
      ),
    );
    return null;
  }
  await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.job(job.id),
        UpdateExpression: 'SET latitude = :lat, longitude = :lon, geohash = :hash, geocodedAddress = :address REMOVE addressNotFound',
        ConditionExpression: 'fullAddress = :address',
        ExpressionAttributeValues: {
          ':lat': point.latitude,
          ':lon': point.longitude,
          ':hash': ngeohash.encode(point.latitude, point.longitude, GEOHASH_PRECISION),
          ':address': job.fullAddress,
        },
      }),
    ),
  );
  return point;
}
