import type { EventBridgeEvent } from 'aws-lambda';
import type { AppNotification } from '../../../shared/api.js';
import { queueForMail } from '../notification-mail.js';
import { withLogContext } from '../../lib/logger.js';

/** Every new notification goes to the mail queue; the mailer decides whether and when it is emailed. */
async function handle(event: EventBridgeEvent<string, { userId: string; notification: AppNotification }>): Promise<void> {
  await queueForMail([{ userId: event.detail.userId, notification: event.detail.notification }]);
}

export const handler = withLogContext(handle);
