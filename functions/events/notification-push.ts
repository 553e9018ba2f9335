import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification, LiveMessage } from '../../shared/api.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';

/** A new notification goes live to every connection of the user it is for. */
export async function handler(event: EventBridgeEvent<string, { userId: string; notification: AppNotification }>): Promise<void> {
  const { userId, notification } = event.detail;
  const message: LiveMessage = { type: 'notification', notification };
  await pushToConnections(userConnectionIds(userId), message);
}
