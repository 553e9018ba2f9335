import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { markJobPaid } from '../domain/job-money.js';
import { markProcessed, processedMarker } from '../domain/job-payments.js';
import { getJob } from '../domain/jobs.js';
import { jobScope, settleMovement } from '../domain/ledger.js';
import { withLogContext } from '../lib/logger.js';

/**
 * `transfer.created`: if the release call died between Stripe's transfer and our write, the
 * job's money is still `releasing`; this settles the release. Otherwise it marks the ledger's
 * transfer settled. A transfer the process never decided is left for reconciliation to report.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const transfer = event.detail.data.object as Stripe.Transfer;
  const jobId = transfer.metadata?.jobId;
  const job = jobId ? await getJob(jobId, { consistentRead: true }) : undefined;
  if (job?.moneyState === 'releasing' && job.workerId && !transfer.metadata?.split) {
    await markJobPaid(job, transfer.id, [processedMarker(event.detail.id)], { settled: true });
    return;
  }
  if (jobId) await settleMovement(jobScope(jobId), transfer.metadata?.tip ? 'tip_transfer' : 'transfer', transfer.id);
  await markProcessed(event.detail.id);
}

export const handler = withLogContext(handle);
