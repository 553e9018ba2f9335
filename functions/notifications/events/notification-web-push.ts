import type { EventBridgeEvent } from 'aws-lambda';
import { newNotificationsOf, type NewNotification } from '../notifications.js';
import { deliverByPush } from '../push-subscriptions.js';
import { inBatches } from '../../lib/concurrency.js';
import { storedEventConsumer } from '../../lib/stored-event.js';

/** Users whose notifications are pushed at once. */
const USERS_AT_ONCE = 16;

/**
 * A new notification, or many in one event (NOTIFICATION_EVENT.createdInBulk), goes by web push
 * to its user's browsers, when they chose push for its type. A failed delivery fails the event
 * once the others were tried; its retry pushes none of those delivered again (deliverByPush's claim).
 */
async function handle(event: EventBridgeEvent<string, NewNotification | { notifications: NewNotification[] }>): Promise<void> {
  const errors = await inBatches(newNotificationsOf(event.detail), USERS_AT_ONCE, ({ userId, notification }) =>
    deliverByPush(userId, notification).then(
      () => undefined,
      (error: unknown) => error ?? new Error('web push failed'),
    ),
  );
  const failure = errors.find((error) => error !== undefined);
  if (failure !== undefined) throw failure;
}

export const handler = storedEventConsumer(handle);
