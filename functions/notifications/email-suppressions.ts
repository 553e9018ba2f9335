import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { EmailSuppression, EmailSuppressionReason } from '../../shared/admin.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { keys } from '../table.js';

/**
 * The part of an SES event (event publishing through a configuration set to SNS) that stops
 * email: a permanent bounce or a complaint, with its recipients. Transient bounces (a full
 * mailbox) and the other event types change nothing.
 */
export interface SesFeedbackEvent {
  eventType?: string;
  bounce?: { bounceType?: string; timestamp?: string; bouncedRecipients?: Array<{ emailAddress?: string }> };
  complaint?: { timestamp?: string; complainedRecipients?: Array<{ emailAddress?: string }> };
}

/** The suppressions an SES event asks for: one per recipient of a permanent bounce or a complaint. */
export function suppressionsOf(event: SesFeedbackEvent, now: Date): Array<{ email: string } & EmailSuppression> {
  const at = (timestamp: string | undefined) => timestamp ?? now.toISOString();
  const addresses = (recipients: Array<{ emailAddress?: string }> | undefined) => (recipients ?? []).flatMap(({ emailAddress }) => (emailAddress ? [emailAddress] : []));
  if (event.eventType === 'Bounce' && event.bounce?.bounceType === 'Permanent') {
    return addresses(event.bounce.bouncedRecipients).map((email) => ({ email, reason: 'bounced' as EmailSuppressionReason, at: at(event.bounce?.timestamp) }));
  }
  if (event.eventType === 'Complaint') {
    return addresses(event.complaint?.complainedRecipients).map((email) => ({ email, reason: 'complaint' as EmailSuppressionReason, at: at(event.complaint?.timestamp) }));
  }
  return [];
}

/** Records that an address gets no more email; the first reason stays (a redelivered SNS message changes nothing). */
export async function suppressEmail({ email, reason, at }: { email: string } & EmailSuppression): Promise<void> {
  await conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.emailSuppression(email), type: 'emailSuppression', email: email.toLowerCase(), reason, at },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Why and since when an address gets no email, or null while it may be emailed. */
export async function emailSuppression(email: string): Promise<EmailSuppression | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.emailSuppression(email) }));
  return Item ? { reason: Item.reason as EmailSuppressionReason, at: Item.at as string } : null;
}
