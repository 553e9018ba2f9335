import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountStatus } from '../../shared/admin.js';
import type { NotificationPreferences, OwnProfile, PublicProfile } from '../../shared/api.js';
import { channelsWithDefaults, DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { NO_PAYMENT_ACCOUNT, type PaymentAccount } from '../../shared/payments.js';
import type { IdentityStatus } from '../../shared/identity.js';
import type { Role } from '../../shared/roles.js';
import { batchGet } from '../lib/batch.js';
import { conditionHeld, db, isConditionFailure, tableName } from '../lib/db.js';
import { imageUrl } from '../lib/images.js';
import { keys } from '../table.js';

/** As stored: profiles saved before channels existed have none (the defaults apply). */
export type StoredNotificationPreferences = Omit<NotificationPreferences, 'channels'> & { channels?: Partial<NotificationPreferences['channels']> };

export interface ProfileItem {
  id: string;
  name: string;
  email: string;
  role: Role;
  bio: string;
  skills: string[];
  location: string;
  /** The avatar's key in the images bucket. */
  profileImageKey: string | null;
  /** Sum of received ratings and their count: the average is derived, never stored. */
  ratingTotal: number;
  reviewCount: number;
  completedJobs: number;
  latitude?: number;
  longitude?: number;
  locationUpdatedAt?: string;
  /** The IANA zone the browser reported with the location: alert days and quiet hours run in it. */
  timeZone?: string;
  /** The market (city, state) of the location: the admin's Locations tab counts workers by it. */
  market?: string;
  notificationPreferences: StoredNotificationPreferences;
  /** The Stripe connected account (Express), once created. */
  stripeAccountId?: string;
  /** The Stripe Customer a poster's payments save their card to (for tips), once created. */
  stripeCustomerId?: string;
  paymentAccount: PaymentAccount;
  /** Set when the user deleted their account (functions/people/account-deletion.ts): the profile is then an anonymous tombstone. */
  deletedAt?: string;

  /**
   * The identity check (issue 47, functions/people/identity.ts): its status, when it was read
   * verified, Stripe's session id and when Stripe was last read. Nothing else of it is stored.
   */
  identityStatus?: IdentityStatus;
  identityVerifiedAt?: string;
  identitySessionId?: string;
  identityCheckedAt?: string;

  /** Absent on profiles stored before suspension existed: active. */
  accountStatus?: AccountStatus;
  /** While suspended: the admin's reason and when. */
  suspensionReason?: string;
  suspendedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The admin's user search keys (GSI2 by name, GSI3 by email), written with the profile and rewritten with its name. */
const nameSearchKeys = (userId: string, name: string) => ({ gsi2pk: keys.usersByName(), gsi2sk: keys.userSearchKey(name, userId) });
const emailSearchKeys = (userId: string, email: string) => ({ gsi3pk: keys.usersByEmail(), gsi3sk: keys.userSearchKey(email, userId) });

export function averageRating(item: Pick<ProfileItem, 'ratingTotal' | 'reviewCount'>): number | null {
  return item.reviewCount > 0 ? Math.round((item.ratingTotal / item.reviewCount) * 10) / 10 : null;
}

export function toPublicProfile(item: ProfileItem): PublicProfile {
  return {
    id: item.id,
    name: item.name,
    role: item.role,
    profileImage: item.profileImageKey ? imageUrl(item.profileImageKey) : null,
    bio: item.bio,
    skills: item.skills,
    rating: averageRating(item),
    reviewCount: item.reviewCount,
    completedJobs: item.completedJobs,
    identityVerified: item.identityStatus === 'verified',
    createdAt: item.createdAt,
  };
}

export function toOwnProfile(item: ProfileItem): OwnProfile {
  return {
    ...toPublicProfile(item),
    email: item.email,
    location: item.location,
    latitude: item.latitude ?? null,
    longitude: item.longitude ?? null,
    locationUpdatedAt: item.locationUpdatedAt ?? null,
    notificationPreferences: { ...item.notificationPreferences, channels: channelsWithDefaults(item.notificationPreferences.channels) },
    timeZone: item.timeZone ?? null,
    paymentAccount: item.paymentAccount,
    identity: item.identityStatus ? { status: item.identityStatus, verifiedAt: item.identityVerifiedAt ?? null } : null,
  };
}

export async function getProfile(userId: string): Promise<ProfileItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.profile(userId) }));
  return Item as ProfileItem | undefined;
}

/** The names of these users (one BatchGetItem per 100): what the admin console shows instead of ids; null for a user without a profile. */
export async function profileNames(userIds: Iterable<string>): Promise<Map<string, string | null>> {
  const ids = [...new Set(userIds)];
  const profiles = await batchGet<ProfileItem>(ids.map((id) => keys.profile(id)));
  return new Map(ids.map((id, i) => [id, profiles[i]?.name ?? null]));
}

export function newProfile(input: { id: string; name: string; email: string; role: Role; now: string }): ProfileItem {
  return {
    id: input.id,
    name: input.name,
    email: input.email,
    role: input.role,
    bio: '',
    skills: [],
    location: '',
    profileImageKey: null,
    ratingTotal: 0,
    reviewCount: 0,
    completedJobs: 0,
    notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES,
    paymentAccount: NO_PAYMENT_ACCOUNT,
    accountStatus: 'active',
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/** Creates the profile once; a repeated confirmation (trigger retry) leaves the first one as is. */
export async function createProfileOnce(profile: ProfileItem): Promise<boolean> {
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.profile(profile.id), type: 'profile', ...profile, ...nameSearchKeys(profile.id, profile.name), ...emailSearchKeys(profile.id, profile.email) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** `SET` of every field, with placeholder names and values (`:v<i>`; add your own values beside them). */
export function setClause(fields: Record<string, unknown>): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  return { expression: `SET ${sets.join(', ')}`, names, values };
}

/** Writes the given fields (already validated) and returns the whole updated profile. */
export async function updateProfile(userId: string, changes: Record<string, unknown>): Promise<ProfileItem | undefined> {
  const now = new Date().toISOString();
  const renamed = typeof changes.name === 'string' ? nameSearchKeys(userId, changes.name) : {};
  const set = setClause({ ...changes, ...renamed, updatedAt: now });
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.profile(userId),
        UpdateExpression: set.expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: set.names,
        ExpressionAttributeValues: set.values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ProfileItem;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
