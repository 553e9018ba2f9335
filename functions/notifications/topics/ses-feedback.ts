import type { SNSEvent } from 'aws-lambda';
import { suppressEmail, suppressionsOf, type SesFeedbackEvent } from '../email-suppressions.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * SES's bounce and complaint events, published by the mailer's configuration set to SNS: each
 * permanent bounce or complaint stops email to its address (functions/notifications/email-suppressions.ts).
 * A throw makes Lambda retry the asynchronous invocation; the suppression is written once.
 */
async function handle(event: SNSEvent): Promise<void> {
  const now = new Date();
  for (const record of event.Records) {
    const suppressions = suppressionsOf(JSON.parse(record.Sns.Message) as SesFeedbackEvent, now);
    for (const suppression of suppressions) await suppressEmail(suppression);
    logger.info('ses feedback', { messageId: record.Sns.MessageId, suppressed: suppressions.map(({ reason }) => reason) });
  }
}

export const handler = withLogContext(handle);
