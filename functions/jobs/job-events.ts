import type { Review } from '../../shared/api.js';
import { EVENT_SOURCE, REVIEW_EVENT, type JOB_EVENT, type JobChange, type JobEventDetail } from '../routes.js';
import { outboxEvent } from '../lib/outbox.js';
import type { TransactItem } from '../lib/transactions.js';
import { toJobSummary, type JobItem } from './jobs.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/**
 * The outbox item telling the bus a job changed (the live feed, the search index and the
 * payments rules react), for the transaction that makes the change.
 */
export function jobEvent(detailType: JobEventType, job: JobItem, change: JobChange): TransactItem {
  const detail: JobEventDetail = {
    job: {
      ...toJobSummary(job),
      ...(job.paidAt ? { paidAt: job.paidAt, stripePaymentIntentId: job.stripePaymentIntentId } : {}),
      // The refund rule may run after the job is gone: Stripe's idempotent refund must be asked
      // with the same reason the deciding call gave it.
      ...(job.refundReason ? { refundReason: job.refundReason } : {}),
    },
    change,
    ...(job.autoReleaseAt ? { autoReleaseAt: job.autoReleaseAt } : {}),
  };
  return outboxEvent(EVENT_SOURCE.jobs, detailType, detail);
}

/**
 * The outbox item telling the bus a review was saved, for the review's transaction: the
 * reviewee's open pages show it live (spec 2 §4 "Live updates").
 */
export function reviewEvent(review: Review): TransactItem {
  return outboxEvent(EVENT_SOURCE.reviews, REVIEW_EVENT.saved, review);
}
