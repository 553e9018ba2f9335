import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { markJobPaid, markProcessed, processedMarker } from '../domain/job-payments.js';
import { getJob } from '../domain/jobs.js';
import { withLogContext } from '../lib/logger.js';

/**
 * `transfer.created`: if the release call died between Stripe's transfer and our write, the
 * job is still `completed`; this finishes the release. Otherwise it only records the event.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const transfer = event.detail.data.object as Stripe.Transfer;
  const job = transfer.metadata?.jobId ? await getJob(transfer.metadata.jobId) : undefined;
  if (job?.status === 'completed' && job.workerId) {
    await markJobPaid(job, transfer.id, [processedMarker(event.detail.id)]);
    return;
  }
  await markProcessed(event.detail.id);
}

export const handler = withLogContext(handle);
