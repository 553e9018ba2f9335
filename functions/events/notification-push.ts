import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification } from '../../shared/api.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';

/** A new notification goes live to every connection of the user it is for. */
export async function handler(event: EventBridgeEvent<string, { userId: string; notification: AppNotification }>): Promise<void> {
  const { userId, notification } = event.detail;
  await pushToConnections(userConnectionIds(userId), { type: 'notification', notification });
}
