import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AppNotification, NotificationType } from '../../shared/api.js';
import { channelsWithDefaults } from '../../shared/notifications.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { env, optionalEnv } from '../lib/env.js';
import { sendEmail } from '../lib/mail.js';
import { SQS_MAX_DELAY_SECONDS, sendMessages } from '../lib/queues.js';
import { unsubscribeToken } from '../lib/unsubscribe-tokens.js';
import { keys } from '../table.js';
import { emailSuppression } from './email-suppressions.js';
import { quietSecondsLeft } from './local-clock.js';
import { renderNotificationEmail } from './notification-email.js';
import { getProfile, type ProfileItem } from '../people/profiles.js';

/**
 * One message of the mail queue: a notification for its user, to email; or, with `channel:
 * 'push'`, a web push held back by the user's quiet hours (functions/notifications/push-subscriptions.ts),
 * which the mailer pushes once they end.
 */
export interface MailRequest {
  userId: string;
  notification: AppNotification;
  /** Absent: email. */
  channel?: 'push';
}

export type MailOutcome = 'sent' | 'already sent' | 'not wanted' | 'no such user' | 'held for quiet hours' | 'email off' | 'digest only' | 'suppressed';

/**
 * Types never emailed one by one: nearby jobs go by email only in the daily digest (DECISIONS.md
 * "Off-site delivery"; functions/location/nearby-digest.ts).
 */
const DIGEST_ONLY: ReadonlySet<NotificationType> = new Set<NotificationType>(['new_job_nearby']);

/** How long a delivery record is kept: longer than any retry or quiet-hours hold of its message. */
const DELIVERY_RECORD_DAYS = 14;

/** Queues new notifications for the mailer. */
export const queueForMail = (requests: readonly MailRequest[]) => sendMessages('mailQueueUrl', requests);

/**
 * Claims the email delivery of a notification: true for the first caller only, so a mailer
 * that receives its message again (a retry, a duplicate from the bus or the queue) sends once.
 */
async function claimDelivery(notificationId: string, now: Date): Promise<boolean> {
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.notificationDelivery(notificationId, 'email'),
          type: 'notificationDelivery',
          sentAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + DELIVERY_RECORD_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Gives the claim back when SES refused: the message's retry may send. */
const releaseDelivery = (notificationId: string) => db.send(new DeleteCommand({ TableName: tableName(), Key: keys.notificationDelivery(notificationId, 'email') }));

/**
 * During the user's quiet hours, sends the request back to the mail queue delayed until they
 * end (in steps of SQS's longest delay; its consumer asks again then) and answers true; outside
 * them, false. Email and push are held alike (DECISIONS.md "Off-site delivery").
 */
export async function heldForQuietHours(request: MailRequest, profile: Pick<ProfileItem, 'notificationPreferences' | 'timeZone'>, now: Date): Promise<boolean> {
  const quietSeconds = quietSecondsLeft(profile.notificationPreferences.quietHours, now, profile.timeZone);
  if (quietSeconds === 0) return false;
  await sendMessages('mailQueueUrl', [request], { delaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, quietSeconds) });
  return true;
}

/**
 * Emails a notification to its user if they want that type by email (asked at sending time:
 * an unsubscribe after queueing still counts). During the user's quiet hours the message goes
 * back to the queue, delayed until they end (in steps of SQS's longest delay), DECISIONS.md
 * "Off-site delivery". Sent once per notification whatever the retries.
 */
export async function deliverNotificationEmail(request: MailRequest, now = new Date()): Promise<MailOutcome> {
  if (!optionalEnv('mailFromAddress')) return 'email off';
  const { notification } = request;
  if (DIGEST_ONLY.has(notification.type)) return 'digest only';
  const profile = await getProfile(request.userId);
  if (!profile) return 'no such user';
  const preferences = profile.notificationPreferences;
  if (!channelsWithDefaults(preferences.channels)[notification.type].email) return 'not wanted';
  // SES reported the address as bouncing or complaining: sending again would hurt the sender's reputation.
  if (await emailSuppression(profile.email)) return 'suppressed';
  if (await heldForQuietHours(request, profile, now)) return 'held for quiet hours';
  if (!(await claimDelivery(notification.id, now))) return 'already sent';
  const email = renderNotificationEmail(notification, profile.role, {
    siteOrigin: env('mailLinkOrigin'),
    apiUrl: env('apiUrl'),
    unsubscribeToken: await unsubscribeToken({ userId: profile.id, type: notification.type }),
  });
  try {
    await sendEmail({ to: profile.email, ...email });
  } catch (error) {
    await releaseDelivery(notification.id);
    throw error;
  }
  return 'sent';
}
