import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationPreferences } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import type { RADIUS_OPTIONS } from '../../shared/notifications.js';
import { db, isConditionFailure, tableName } from '../lib/db.js';
import { conflict, notFound } from '../lib/errors.js';
import { PARTITION_PRECISION, pointCell, type GeoPoint } from '../lib/geo-cells.js';
import { keys } from '../table.js';
import { getProfile, setClause, type ProfileItem } from './profiles.js';

/**
 * The geo index of workers who want nearby-job alerts: GSI1 `GEO#<radius>#<geohash4>` /
 * `<geohash7>#<userId>`. Indexing each worker under their own radius lets the alert handler
 * cover, per radius choice, only the circle that radius reaches around the job: it reads
 * (almost) only workers who are in range (docs/data-model.md #32, docs/decisions.md).
 */
export const workersNear = (radiusMiles: number, partitionCell: string) => keys.workersInCell(radiusMiles, partitionCell);

/** How fine the cover of each radius is: measured so items read stay under 2 × workers in range. */
export const COVER_PRECISION: Record<(typeof RADIUS_OPTIONS)[number], number> = { 1: 6, 3: 6, 5: 5, 10: 5, 25: 5 };

export function geoIndexKey(profile: ProfileItem): { gsi1pk: string; gsi1sk: string } | null {
  const { role, latitude, longitude, notificationPreferences: preferences } = profile;
  if (role !== 'worker' || latitude === undefined || longitude === undefined || !preferences.enabled) return null;
  const cell = pointCell({ latitude, longitude });
  return { gsi1pk: workersNear(preferences.radiusMiles, cell.slice(0, PARTITION_PRECISION)), gsi1sk: `${cell}#${profile.id}` };
}

/**
 * Applies a change to the profile and sets (or removes) its geo index key from the result,
 * in one conditional write on the version read, so a concurrent location or preferences
 * change can never leave the key describing the other's old values.
 */
async function changeIndexedProfile(userId: string, change: (profile: ProfileItem) => Partial<ProfileItem>): Promise<ProfileItem> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const profile = await getProfile(userId);
    if (!profile) throw notFound(MSG.location.profileRequired);
    const changes = { ...change(profile), updatedAt: new Date().toISOString() };
    const geo = geoIndexKey({ ...profile, ...changes });
    const fields = { ...changes, ...(geo ?? {}) };
    const set = setClause(fields);
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.profile(userId),
          UpdateExpression: `${set.expression}${geo ? '' : ' REMOVE gsi1pk, gsi1sk'}`,
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeNames: set.names,
          ExpressionAttributeValues: { ...set.values, ':seen': profile.updatedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as ProfileItem;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw conflict();
}

/** Stores the user's location (and the zip it came from, if any) with the browser's time zone. */
export function saveLocation(userId: string, point: GeoPoint, timeZone: string, zip?: string): Promise<ProfileItem> {
  return changeIndexedProfile(userId, () => ({
    latitude: point.latitude,
    longitude: point.longitude,
    locationUpdatedAt: new Date().toISOString(),
    timeZone,
    ...(zip ? { location: zip } : {}),
  }));
}

export function savePreferences(userId: string, notificationPreferences: NotificationPreferences): Promise<ProfileItem> {
  return changeIndexedProfile(userId, () => ({ notificationPreferences }));
}
