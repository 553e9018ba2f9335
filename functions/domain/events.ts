import { EVENT_SOURCE, NOTIFICATION_EVENT, type JOB_EVENT, type JobChange } from '../routes.js';
import { publishEvent } from '../lib/events.js';
import { toJobSummary, type JobItem } from './jobs.js';
import { toNotification, type notificationItem } from './notifications.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/** Tells the bus a job changed: the live feed, the search index and (later) payments react. */
export function publishJobEvent(detailType: JobEventType, job: JobItem, change?: JobChange): Promise<void> {
  return publishEvent(EVENT_SOURCE.jobs, detailType, {
    job: {
      ...toJobSummary(job),
      ...(job.paidAt ? { paidAt: job.paidAt, stripePaymentIntentId: job.stripePaymentIntentId } : {}),
    },
    ...(change ? { change } : {}),
  });
}

/** Tells the bus a notification was written, so it reaches the user live. */
export function publishNotificationCreated(item: ReturnType<typeof notificationItem>): Promise<void> {
  return publishEvent(EVENT_SOURCE.notifications, NOTIFICATION_EVENT.created, { userId: item.userId, notification: toNotification(item) });
}
