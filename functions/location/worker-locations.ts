import { MSG } from '../../shared/messages.js';
import type { NotificationType } from '../../shared/api.js';
import { channelsWithDefaults, type RADIUS_OPTIONS } from '../../shared/notifications.js';
import { tableName } from '../lib/db.js';
import { notFound } from '../lib/errors.js';
import { PARTITION_PRECISION, pointCell, type GeoPoint } from '../lib/geo-cells.js';
import { retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { marketTotalsUpdate } from '../admin/market-stats.js';
import { getProfile, setClause, type ProfileItem, type StoredNotificationPreferences } from '../people/profiles.js';

/**
 * The geo index of workers who want nearby-job alerts: GSI1 `GEO#<radius>#<geohash4>` /
 * `<geohash7>#<userId>`. Indexing each worker under their own radius lets the alert handler
 * cover, per radius choice, only the circle that radius reaches around the job: it reads
 * (almost) only workers who are in range (docs/data-model.md #32, docs/decisions/0091-geo-index-per-radius.md).
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

type WorkerShare = { workersWithLocation: number; workersWithAlerts: number };

/** What a worker adds to their market's figures (DECISIONS.md "Locations tab"); nothing for anyone else. */
function workerShareOf(profile: ProfileItem): (WorkerShare & { market: string }) | null {
  if (profile.role !== 'worker' || !profile.market || profile.latitude === undefined) return null;
  return { market: profile.market, workersWithLocation: 1, workersWithAlerts: profile.notificationPreferences.enabled ? 1 : 0 };
}

/** The market totals updates that move a worker's share from `before` to `after` (none when it did not change). */
export function workerShareUpdates(before: ProfileItem, after: ProfileItem): TransactItem[] {
  const [was, now] = [workerShareOf(before), workerShareOf(after)];
  const adds = new Map<string, WorkerShare>();
  for (const [share, sign] of [[was, -1], [now, 1]] as const) {
    if (!share) continue;
    const add = adds.get(share.market) ?? { workersWithLocation: 0, workersWithAlerts: 0 };
    add.workersWithLocation += sign * share.workersWithLocation;
    add.workersWithAlerts += sign * share.workersWithAlerts;
    adds.set(share.market, add);
  }
  return [...adds]
    .filter(([, add]) => add.workersWithLocation !== 0 || add.workersWithAlerts !== 0)
    .map(([market, add]) => marketTotalsUpdate(market, add));
}

/**
 * Applies a change to the profile and sets (or removes) its geo index key from the result, in
 * one transaction conditional on the version read, with the worker's share of their market's
 * figures: a concurrent location or preferences change can never leave the key or the counts
 * describing the other's old values.
 */
async function changeIndexedProfile(userId: string, change: (profile: ProfileItem) => Partial<ProfileItem>): Promise<ProfileItem> {
  return retryWhileStale(
    async () => {
      const profile = await getProfile(userId);
      if (!profile) throw notFound(MSG.location.profileRequired);
      const changes = { ...change(profile), updatedAt: new Date().toISOString() };
      const geo = geoIndexKey({ ...profile, ...changes });
      const fields = { ...changes, ...(geo ?? {}) };
      const set = setClause(fields);
      const changed: ProfileItem = { ...profile, ...changes };
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.profile(userId),
            UpdateExpression: `${set.expression}${geo ? '' : ' REMOVE gsi1pk, gsi1sk'}`,
            ConditionExpression: 'updatedAt = :seen',
            ExpressionAttributeNames: set.names,
            ExpressionAttributeValues: { ...set.values, ':seen': profile.updatedAt },
          },
        },
        ...workerShareUpdates(profile, changed),
      ]);
      return changed;
    },
    { exhaustedMessage: MSG.backend.conflict },
  );
}

/** Where a worker is: the point, its market (Geocoder.market) and the zip it came from, if any. */
export interface WorkerPlace {
  point: GeoPoint;
  market: string | null;
  zip?: string;
}

/** Stores the user's location with the browser's time zone. */
export function saveLocation(userId: string, { point, market, zip }: WorkerPlace, timeZone: string): Promise<ProfileItem> {
  return changeIndexedProfile(userId, () => ({
    latitude: point.latitude,
    longitude: point.longitude,
    ...(market ? { market } : {}),
    locationUpdatedAt: new Date().toISOString(),
    timeZone,
    ...(zip ? { location: zip } : {}),
  }));
}

/** An email's one-click unsubscribe: this type no longer by email, every other choice as it was. */
export function turnOffEmail(userId: string, type: NotificationType): Promise<ProfileItem> {
  return changeIndexedProfile(userId, ({ notificationPreferences: preferences }) => ({
    notificationPreferences: { ...preferences, channels: { ...preferences.channels, [type]: { ...channelsWithDefaults(preferences.channels)[type], email: false } } },
  }));
}

/** The preferences as saved, with the zone their quiet hours run in when the browser sent it; the channels of types not given stay as they were. */
export function savePreferences(userId: string, { channels, timeZone, ...preferences }: StoredNotificationPreferences & { timeZone?: string }): Promise<ProfileItem> {
  return changeIndexedProfile(userId, (profile) => ({
    notificationPreferences: { ...preferences, channels: { ...profile.notificationPreferences.channels, ...channels } },
    ...(timeZone ? { timeZone } : {}),
  }));
}
