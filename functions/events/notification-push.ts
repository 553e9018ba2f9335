import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification, LiveMessage } from '../../shared/api.js';
import { NOTIFICATION_EVENT } from '../routes.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';
import { withLogContext } from '../lib/logger.js';

type NotificationEventDetail = { userId: string; notification: AppNotification } | { userId: string; notificationId: string | null };

/** A new notification, or a change of read state, goes live to every connection of its user. */
async function handle(event: EventBridgeEvent<string, NotificationEventDetail>): Promise<void> {
  const { detail } = event;
  const message: LiveMessage =
    event['detail-type'] === NOTIFICATION_EVENT.read && 'notificationId' in detail
      ? { type: 'notifications.read', notificationId: detail.notificationId }
      : { type: 'notification', notification: (detail as { notification: AppNotification }).notification };
  await pushToConnections(userConnectionIds(detail.userId), message);
}

export const handler = withLogContext(handle);
