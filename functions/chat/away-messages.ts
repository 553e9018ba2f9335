import { MSG } from '../../shared/messages.js';
import { tableName } from '../lib/db.js';
import { TransactionRefused, transactWrite } from '../lib/transactions.js';
import { keys } from '../table.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';

/**
 * How long after telling a party who was away about a conversation's messages it stays quiet
 * (docs/decisions/0184-chat-while-away.md): more messages in that time add no notification and
 * so no email; the conversation's own unread count still shows them.
 */
export const AWAY_MESSAGES_PERIOD_MINUTES = 30;

export interface AwayMessage {
  jobId: string;
  workerId: string;
  conversationId: string;
  jobTitle: string;
  senderName: string;
  recipientId: string;
}

/**
 * A message reached a party with no open connection: tells them with one new_message
 * notification (in the app, and by email if they want it), unless the conversation's quiet
 * period for them is still running. The period's claim and the notification are one
 * transaction, so concurrent messages make one notification at most. Answers it, if written.
 */
export async function notifyAwayRecipient(message: AwayMessage, now = new Date()): Promise<StoredNotification | undefined> {
  const notification = notificationItem({
    userId: message.recipientId,
    jobId: message.jobId,
    type: 'new_message',
    title: MSG.applications.awayMessagesTitle,
    message: MSG.applications.awayMessagesMessage(message.senderName, message.jobTitle),
    metadata: { conversation_id: message.conversationId, jobTitle: message.jobTitle },
    createdAt: now.toISOString(),
  });
  const periodEndsAt = now.getTime() + AWAY_MESSAGES_PERIOD_MINUTES * 60_000;
  const claim = {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.awayMessagesPeriod(message.jobId, message.workerId, message.recipientId),
        type: 'awayMessagesPeriod',
        periodEndsAt,
        expiresAt: Math.ceil(periodEndsAt / 1000) + 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR periodEndsAt <= :now',
      ExpressionAttributeValues: { ':now': now.getTime() },
    },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await transactWrite([claim, ...notificationWrites(notification)]);
      return notification;
    } catch (error) {
      // The period is still running (another message claimed it): nothing more to tell.
      if (error instanceof TransactionRefused && error.failed(0)) return undefined;
      // A concurrent transaction on the same items: try again, it may have claimed the period by now.
      if (!(error instanceof TransactionRefused) || attempt === 3) throw error;
    }
  }
}
