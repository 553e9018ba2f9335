import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../routes.js';
import { settleRefund } from '../domain/job-money.js';
import { getJob, type JobItem } from '../domain/jobs.js';
import { jobScope, movementsOf } from '../domain/ledger.js';
import { logger, withLogContext } from '../lib/logger.js';

/**
 * Finishes a refund the job process decided (shared/job-process.ts: a poster's cancel or delete
 * of an open job, the admin's cancel or delete): the job's money waits in `refunding`, and this
 * rule makes Stripe's refund and settles it, unless the deciding call already did. Stripe's
 * idempotency key (the job's) and the ledger's movement key make a retry refund once.
 */
async function handle(event: { detail: JobEventDetail } & Pick<EventBridgeEvent<string, unknown>, 'detail-type'>): Promise<void> {
  const { job: summary, change } = event.detail;
  if (summary.moneyState !== 'refunding' || !summary.stripePaymentIntentId) return;
  // A deleted job may be gone already: its event carries what the refund needs.
  const stored = await getJob(summary.id, { consistentRead: true, includeDeleting: true });
  const job = stored ?? ({ ...summary, imageKeys: [], fullAddress: '', deletingAt: summary.updatedAt } as unknown as JobItem);
  if (stored && stored.moneyState !== 'refunding') return;
  // A deleted job's money state is never settled (the job is going): its ledger tells whether the
  // refund was made, which a redrive after Stripe's idempotency keys expired (24 h) must not ask again.
  if (job.deletingAt && (await movementsOf(jobScope(job.id))).some((movement) => movement.kind === 'refund')) return;
  await settleRefund(job);
  logger.info('job payment refunded', { jobId: job.id, change });
}

export const handler = withLogContext(handle);
