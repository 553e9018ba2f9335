import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification } from '../../shared/api.js';
import { deliverByPush } from '../domain/push-subscriptions.js';
import { withLogContext } from '../lib/logger.js';

/** A new notification goes by web push to its user's browsers, when they chose push for its type. */
async function handle(event: EventBridgeEvent<string, { userId: string; notification: AppNotification }>): Promise<void> {
  await deliverByPush(event.detail.userId, event.detail.notification);
}

export const handler = withLogContext(handle);
