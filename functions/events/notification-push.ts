import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification, LiveMessage } from '../../shared/api.js';
import { NOTIFICATION_EVENT } from '../routes.js';
import { typesHiddenInApp } from '../domain/notifications.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';
import { withLogContext } from '../lib/logger.js';

type NotificationEventDetail = { userId: string; notification: AppNotification } | { userId: string; notificationId: string | null };

/**
 * A new notification, or a change of read state, goes live to every connection of its user;
 * a new one of a type the user turned off in the app does not.
 */
async function handle(event: EventBridgeEvent<string, NotificationEventDetail>): Promise<void> {
  const { detail } = event;
  if (event['detail-type'] === NOTIFICATION_EVENT.read && 'notificationId' in detail) {
    await pushToConnections(userConnectionIds(detail.userId), { type: 'notifications.read', notificationId: detail.notificationId });
    return;
  }
  const { notification } = detail as { notification: AppNotification };
  if ((await typesHiddenInApp(detail.userId)).includes(notification.type)) return;
  const message: LiveMessage = { type: 'notification', notification };
  await pushToConnections(userConnectionIds(detail.userId), message);
}

export const handler = withLogContext(handle);
