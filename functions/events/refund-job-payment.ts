import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../routes.js';
import { refundPayment } from '../domain/job-payments.js';
import { logger, withLogContext } from '../lib/logger.js';

/**
 * Deleting an open paid job, or cancelling an assigned one, refunds the poster in full. The
 * rule matches only paid jobs; Stripe's idempotency key (the job's) makes retries refund once.
 */
async function handle(event: { detail: JobEventDetail } & Pick<EventBridgeEvent<string, unknown>, 'detail-type'>): Promise<void> {
  const { job, change } = event.detail;
  // A deleted job is refunded only if it was still open: later, the money went to the worker
  // (paid), back to the poster already (cancelled), or is awaiting release (completed).
  if (!job.stripePaymentIntentId || (change === 'deleted' && job.status !== 'open')) return;
  const refunded = await refundPayment(job.stripePaymentIntentId, `Job ${change}`, `job-refund-${job.id}`);
  logger.info('job payment refunded', { jobId: job.id, change, refunded });
}

export const handler = withLogContext(handle);
