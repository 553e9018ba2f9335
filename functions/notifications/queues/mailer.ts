import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverNotificationEmail, type MailRequest } from '../notification-mail.js';
import { deliverByPush } from '../push-subscriptions.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * Emails the notifications of its messages (functions/notifications/notification-mail.ts), and pushes
 * those whose push waited for the user's quiet hours to end (functions/notifications/push-subscriptions.ts). A message
 * that fails is retried alone (partial batch response), then moved to the dead-letter queue;
 * its delivery record makes sure a retry never sends twice.
 */
async function handle(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const request = JSON.parse(record.body) as MailRequest;
      const outcome = request.channel === 'push' ? await deliverByPush(request.userId, request.notification) : await deliverNotificationEmail(request);
      logger.info(`notification ${request.channel ?? 'email'}`, { notificationId: request.notification.id, type: request.notification.type, outcome });
    } catch (error) {
      logger.error('notification delivery failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = withLogContext(handle);
