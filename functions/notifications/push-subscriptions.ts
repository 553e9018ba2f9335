import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AppNotification } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { notificationTarget } from '../../shared/notification-target.js';
import { deliversBy } from '../../shared/notifications.js';
import { isPushServiceEndpoint, type PushSubscriptionInput } from '../../shared/schemas/push.js';
import { conditionHeld, db, queryAll, tableName } from '../lib/db.js';
import { optionalEnv } from '../lib/env.js';
import { badRequest, conflict } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { sendPush } from '../lib/web-push.js';
import { keys } from '../table.js';
import { heldForQuietHours } from './notification-mail.js';
import { getProfile } from '../people/profiles.js';

/** Browsers one user may have push on in at once; an abandoned one is removed when its push service answers 410. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/** How long a delivery's record is kept: longer than EventBridge retries an event (24 h). */
const DELIVERY_RECORD_DAYS = 3;

const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('base64url');

interface StoredPushSubscription {
  endpoint: string;
  keys: PushSubscriptionInput['keys'];
}

/**
 * A push endpoint is a browser push service's https URL (PUSH_SERVICE_HOSTS). Locally the one
 * exception is the local stack's Web Push receiver (plain http), named by a variable the local
 * stack alone sets.
 */
function checkEndpoint(endpoint: string): void {
  const url = new URL(endpoint);
  if (url.origin === optionalEnv('localPushReceiverOrigin')) return;
  if (url.protocol !== 'https:') throw badRequest(MSG.notifications.pushEndpointInvalid);
  if (!isPushServiceEndpoint(endpoint)) throw badRequest(MSG.notifications.pushEndpointUnknownService);
}

async function subscriptionsOf(userId: string): Promise<StoredPushSubscription[]> {
  return queryAll<StoredPushSubscription>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.pushSubscriptionPrefix() },
    ProjectionExpression: 'endpoint, #keys',
    ExpressionAttributeNames: { '#keys': 'keys' },
  });
}

/** Saves (or refreshes) a browser's subscription for the user; a browser the user already has is saved again, not counted twice. */
export async function savePushSubscription(userId: string, subscription: PushSubscriptionInput): Promise<void> {
  checkEndpoint(subscription.endpoint);
  const existing = await subscriptionsOf(userId);
  const known = existing.some((stored) => stored.endpoint === subscription.endpoint);
  if (!known && existing.length >= MAX_PUSH_SUBSCRIPTIONS) throw conflict(MSG.notifications.pushTooManyBrowsers(MAX_PUSH_SUBSCRIPTIONS));
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.pushSubscription(userId, endpointHash(subscription.endpoint)),
        type: 'pushSubscription',
        userId,
        endpoint: subscription.endpoint,
        keys: subscription.keys,
        savedAt: new Date().toISOString(),
      },
    }),
  );
}

/** Forgets one of the user's subscriptions (none such: nothing to do). */
export async function removePushSubscription(userId: string, endpoint: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.pushSubscription(userId, endpointHash(endpoint)) }));
}

/**
 * Claims the push delivery of a notification: false when it was claimed before (a redelivered
 * event), so each notification is pushed once.
 */
async function claimDelivery(notificationId: string): Promise<boolean> {
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.notificationDelivery(notificationId, 'push'), type: 'notificationDelivery', expiresAt: Math.floor(Date.now() / 1000) + DELIVERY_RECORD_DAYS * 86_400 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

const releaseDelivery = (notificationId: string) => db.send(new DeleteCommand({ TableName: tableName(), Key: keys.notificationDelivery(notificationId, 'push') }));

/** What became of a push: 'held for quiet hours' went back to the mail queue, which pushes it once they end. */
export type PushOutcome = 'pushed' | 'not wanted' | 'no browser' | 'already pushed' | 'held for quiet hours';

/**
 * Pushes a new notification to every browser of its user, when they chose push for its type:
 * its title, its message and the page it opens. During the user's quiet hours it is held back
 * as email is (heldForQuietHours: the mail queue, delayed), and pushed when the mailer receives
 * it after them; the choice and the browsers are read again then. A subscription its push service no longer
 * knows (404/410) is removed. Delivered once per notification: a redelivered event finds the
 * claim. When no push service took it and some failed otherwise, the claim is released and
 * the error thrown, so the event is retried; one that took it is not sent again for another's
 * passing failure (that browser misses it; the notification stays in the app).
 */
export async function deliverByPush(userId: string, notification: AppNotification, now = new Date()): Promise<PushOutcome> {
  const profile = await getProfile(userId);
  if (!profile || !deliversBy(profile.notificationPreferences, notification.type, 'push')) return 'not wanted';
  const subscriptions = await subscriptionsOf(userId);
  if (subscriptions.length === 0) return 'no browser';
  if (await heldForQuietHours({ userId, notification, channel: 'push' }, profile, now)) return 'held for quiet hours';
  if (!(await claimDelivery(notification.id))) return 'already pushed';
  const payload = { title: notification.title, body: notification.message, url: notificationTarget(notification, profile.role) };
  const outcomes = await Promise.allSettled(subscriptions.map((subscription) => sendPush(subscription, payload)));
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  await Promise.all(
    outcomes.map((outcome, index) => (outcome.status === 'fulfilled' && outcome.value === 'gone' ? removePushSubscription(userId, subscriptions[index]!.endpoint) : undefined)),
  );
  if (failures.length === 0) return 'pushed';
  logger.warn('web push failed', { notificationId: notification.id, failed: failures.length, of: subscriptions.length, error: failures[0] });
  if (!outcomes.some((outcome) => outcome.status === 'fulfilled' && outcome.value === 'sent')) {
    await releaseDelivery(notification.id);
    throw failures[0];
  }
  return 'pushed';
}
