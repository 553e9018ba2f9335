import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverNotificationEmail, type MailRequest } from '../domain/notification-mail.js';
import { logger, withLogContext } from '../lib/logger.js';

/**
 * Emails the notifications of its messages (functions/domain/notification-mail.ts). A message
 * that fails is retried alone (partial batch response), then moved to the dead-letter queue;
 * its delivery record makes sure a retry never sends twice.
 */
async function handle(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const request = JSON.parse(record.body) as MailRequest;
      const outcome = await deliverNotificationEmail(request);
      logger.info('notification email', { notificationId: request.notification.id, type: request.notification.type, outcome });
    } catch (error) {
      logger.error('notification email failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = withLogContext(handle);
