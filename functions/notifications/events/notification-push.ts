import type { EventBridgeEvent } from 'aws-lambda';
import type { LiveMessage } from '../../../shared/api.js';
import { NOTIFICATION_EVENT } from '../../routes.js';
import { newNotificationsOf, typesHiddenInApp, type NewNotification } from '../notifications.js';
import { inBatches } from '../../lib/concurrency.js';
import { pushToConnections, userConnectionIds } from '../../lib/sockets.js';
import { storedEventConsumer } from '../../lib/stored-event.js';

type NotificationEventDetail = NewNotification | { notifications: NewNotification[] } | { userId: string; notificationId: string | null };

/** Users whose new notifications go live at once (each: a profile read, a connections query, the pushes). */
const USERS_AT_ONCE = 16;

/** A new notification goes live to every connection of its user, unless they turned its type off in the app. */
async function pushNew({ userId, notification }: NewNotification): Promise<void> {
  if ((await typesHiddenInApp(userId)).includes(notification.type)) return;
  const message: LiveMessage = { type: 'notification', notification };
  await pushToConnections(userConnectionIds(userId), message);
}

/**
 * A new notification, many new ones in one event (NOTIFICATION_EVENT.createdInBulk), or a
 * change of read state, goes live to every connection of its user.
 */
async function handle(event: EventBridgeEvent<string, NotificationEventDetail>): Promise<void> {
  const { detail } = event;
  if (event['detail-type'] === NOTIFICATION_EVENT.read && 'notificationId' in detail) {
    await pushToConnections(userConnectionIds(detail.userId), { type: 'notifications.read', notificationId: detail.notificationId });
    return;
  }
  await inBatches(newNotificationsOf(detail as NewNotification | { notifications: NewNotification[] }), USERS_AT_ONCE, pushNew);
}

export const handler = storedEventConsumer(handle);
