import { randomUUID } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NOTIFICATION_TYPES, type AppNotification, type NotificationType } from '../../shared/api.js';
import { channelsWithDefaults, compareNotifications, NOTIFICATION_LIMITS } from '../../shared/notifications.js';
import { EVENT_SOURCE, NOTIFICATION_EVENT } from '../routes.js';
import { conditionHeld, db, queryAll, tableName } from '../lib/db.js';
import { outboxEvent, publishEvent } from '../lib/outbox.js';
import { TransactionRefused, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getProfile } from '../people/profiles.js';

export interface NotificationItem extends AppNotification {
  userId: string;
}

/** A notification item ready to put (alone or inside a transaction). */
export function notificationItem(input: {
  userId: string;
  jobId: string | null;
  type: NotificationType;
  title: string;
  message: string;
  metadata?: Record<string, string>;
  /** Now, unless backdated (demo data). */
  createdAt?: string;
}) {
  const id = randomUUID();
  const createdAt = input.createdAt ?? new Date().toISOString();
  const notification: NotificationItem = {
    id,
    userId: input.userId,
    jobId: input.jobId,
    type: input.type,
    title: input.title,
    message: input.message,
    metadata: input.metadata ?? {},
    read: false,
    createdAt,
    updatedAt: createdAt,
  };
  const { type: notificationType, ...fields } = notification;
  return {
    ...keys.notification(input.userId, createdAt, id),
    type: 'notification',
    notificationType,
    ...fields,
    // Unread only: marking read removes the key, so GSI2 holds exactly the unread ones.
    gsi2pk: keys.unreadNotificationsOf(input.userId),
    gsi2sk: `${createdAt}#${id}`,
    gsi1pk: keys.notificationById(id),
    gsi1sk: 'NOTIF',
    ...(input.jobId ? { gsi3pk: keys.jobReferences(input.jobId), gsi3sk: `NOTIF#${input.userId}#${id}` } : {}),
  };
}

/** A new notification for its user, as the created events carry it. */
export interface NewNotification {
  userId: string;
  notification: AppNotification;
}

/** The new notifications of a created event: one (NOTIFICATION_EVENT.created) or many (NOTIFICATION_EVENT.createdInBulk). */
export const newNotificationsOf = (detail: NewNotification | { notifications: NewNotification[] }): NewNotification[] =>
  'notifications' in detail ? detail.notifications : [detail];

/** A notification as written to the table (what notificationItem builds). */
export type StoredNotification = ReturnType<typeof notificationItem>;

/**
 * What writing a notification takes, for the transaction of the change it reports: the item,
 * and the outbox event that delivers it live to its user.
 */
export function notificationWrites(item: StoredNotification): TransactItem[] {
  return [
    { Put: { TableName: tableName(), Item: item } },
    outboxEvent(EVENT_SOURCE.notifications, NOTIFICATION_EVENT.created, { userId: item.userId, notification: toNotification(item) }),
  ];
}

export function toNotification(item: Record<string, unknown>): AppNotification {
  return {
    id: item.id as string,
    jobId: (item.jobId as string | null) ?? null,
    type: item.notificationType as NotificationType,
    title: item.title as string,
    message: item.message as string,
    metadata: (item.metadata as Record<string, string>) ?? {},
    read: Boolean(item.read),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/**
 * The types the user turned off in the app: their notifications are still written (other
 * channels carry them) but never listed, counted or pushed live.
 */
export async function typesHiddenInApp(userId: string): Promise<NotificationType[]> {
  const channels = channelsWithDefaults((await getProfile(userId))?.notificationPreferences.channels);
  return NOTIFICATION_TYPES.filter((type) => !channels[type].inApp);
}

/** The query filter that leaves out the hidden types (none when nothing is hidden). */
function shownTypesFilter(hidden: readonly NotificationType[]) {
  if (hidden.length === 0) return { values: {} };
  const names = hidden.map((_, index) => `:hidden${index}`);
  return {
    FilterExpression: `NOT (notificationType IN (${names.join(', ')}))`,
    values: Object.fromEntries(hidden.map((type, index) => [names[index], type])),
  };
}

/** The user's 50 newest notifications shown in the app, in the spec's order (urgent types first, then newest). */
export async function listNotifications(userId: string): Promise<AppNotification[]> {
  const { values, ...filter } = shownTypesFilter(await typesHiddenInApp(userId));
  const items = await queryAll<Record<string, unknown>>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.notificationPrefix(), ...values },
      ...filter,
      ScanIndexForward: false,
      Limit: NOTIFICATION_LIMITS.page,
    },
    NOTIFICATION_LIMITS.page,
  );
  return items.map(toNotification).sort(compareNotifications);
}

/**
 * How many shown ones are unread, counted on the sparse unread index and stopped past the
 * badge's cap: the badge shows '99+' beyond it, so the count reads few keys beyond 100.
 */
export async function countUnread(userId: string): Promise<{ count: number; capped: boolean }> {
  const { values, ...filter } = shownTypesFilter(await typesHiddenInApp(userId));
  const upTo = NOTIFICATION_LIMITS.badgeCap + 1;
  const unread = await queryAll(
    {
      IndexName: 'GSI2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.unreadNotificationsOf(userId), ...values },
      ...filter,
      ProjectionExpression: 'pk',
      Limit: upTo,
    },
    upTo,
  );
  return { count: unread.length, capped: unread.length > NOTIFICATION_LIMITS.badgeCap };
}

/** The notification with this id of this user, or undefined (someone else's reads as missing). */
async function findNotification(userId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.notificationById(id) },
    }),
  );
  return Items.find((item) => item.userId === userId);
}

/** The update that marks an unread notification read and takes it off the unread index. */
function markReadUpdate(item: { pk: unknown; sk: unknown }, now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: 'SET #read = :true, updatedAt = :now REMOVE gsi2pk, gsi2sk',
      ConditionExpression: 'attribute_exists(pk) AND #read = :false',
      ExpressionAttributeNames: { '#read': 'read' },
      ExpressionAttributeValues: { ':true': true, ':false': false, ':now': now },
    },
  };
}

/** The outbox event that tells the user's other tabs what was read (one id, or all with null). */
const readEvent = (userId: string, notificationId: string | null) =>
  ({ source: EVENT_SOURCE.notifications, detailType: NOTIFICATION_EVENT.read, detail: { userId, notificationId } }) as const;

/**
 * Marks one of the user's notifications read, with its live update in the same transaction;
 * null when the user has no such notification. Already read: answered as it is.
 */
export async function markNotificationRead(userId: string, id: string): Promise<AppNotification | null> {
  const item = await findNotification(userId, id);
  if (!item) return null;
  if (item.read) return toNotification(item);
  const now = new Date().toISOString();
  const event = readEvent(userId, id);
  try {
    await transactWrite([markReadUpdate(item as { pk: unknown; sk: unknown }, now), outboxEvent(event.source, event.detailType, event.detail)]);
  } catch (error) {
    // Read meanwhile (another tab): the same answer.
    if (!(error instanceof TransactionRefused)) throw error;
  }
  return toNotification({ ...item, read: true, updatedAt: now });
}

/** Marks every unread notification of the user read; answers how many it found unread. */
export async function markAllNotificationsRead(userId: string): Promise<number> {
  const unread = await queryAll<{ pk: string; sk: string }>({
    IndexName: 'GSI2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.unreadNotificationsOf(userId) },
    ProjectionExpression: 'pk, sk',
  });
  if (unread.length === 0) return 0;
  const now = new Date().toISOString();
  await Promise.all(
    unread.map(async (item) => {
      // A notification read meanwhile is already read.
      await conditionHeld(db.send(new UpdateCommand(markReadUpdate(item, now).Update!)));
    }),
  );
  const event = readEvent(userId, null);
  await publishEvent(event.source, event.detailType, event.detail);
  return unread.length;
}
