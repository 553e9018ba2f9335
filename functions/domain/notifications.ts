import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AppNotification, NotificationType } from '../../shared/api.js';
import { EVENT_SOURCE, NOTIFICATION_EVENT } from '../routes.js';
import { db, tableName } from '../lib/db.js';
import { outboxEvent } from '../lib/outbox.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';

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
}) {
  const id = randomUUID();
  const createdAt = new Date().toISOString();
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
    ...(input.jobId ? { gsi3pk: keys.jobReferences(input.jobId), gsi3sk: `NOTIF#${input.userId}#${id}` } : {}),
  };
}

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

/** The user's notifications, newest first (the bell shows 10, the page 50). */
export async function listNotifications(userId: string, limit: number): Promise<AppNotification[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.notificationPrefix() },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map(toNotification);
}
