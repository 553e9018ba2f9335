import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import ngeohash from 'ngeohash';
import type { JobEventDetail } from '../routes.js';
import { getJob } from '../domain/jobs.js';
import { db, isConditionFailure, tableName } from '../lib/db.js';
import { createGeocoder } from '../lib/geocoder.js';
import { logger } from '../lib/logger.js';
import { keys } from '../table.js';

const geocoder = createGeocoder();

/** Precision 7 (~150 m): fine enough for any radius the preferences offer. */
export const GEOHASH_PRECISION = 7;

/**
 * Geocodes a job's address after it was posted or edited, off the request path. Best effort
 * (spec 1 §5): a failure leaves the job without coordinates. The write is conditional on
 * the address still being the one geocoded, so a late event cannot overwrite a newer edit.
 */
export async function handler(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const job = await getJob(event.detail.job.id);
  if (!job || job.geocodedAddress === job.fullAddress) return;
  const [street, ...rest] = job.fullAddress.split(', ');
  const [city = '', state = ''] = rest.length >= 2 ? rest.slice(-2) : job.location.split(', ');
  const point = await geocoder.geocode({ street, city, state });
  if (!point) {
    logger.info('job address not geocoded', { jobId: job.id });
    return;
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.job(job.id),
        UpdateExpression: 'SET latitude = :lat, longitude = :lon, geohash = :hash, geocodedAddress = :address',
        ConditionExpression: 'fullAddress = :address',
        ExpressionAttributeValues: {
          ':lat': point.latitude,
          ':lon': point.longitude,
          ':hash': ngeohash.encode(point.latitude, point.longitude, GEOHASH_PRECISION),
          ':address': job.fullAddress,
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
