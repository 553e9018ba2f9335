import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { markProcessed, openPaidJob } from '../domain/job-payments.js';
import { settleTipOfIntent } from '../domain/tips.js';
import { jobScope, settleMovement } from '../domain/ledger.js';
import { HttpError } from '../lib/errors.js';
import { logger, withLogContext } from '../lib/logger.js';

/**
 * `payment_intent.succeeded`: settles a tip, or opens the paid job unless the client's confirmation already
 * did. The job change and the event's marker are one transaction, so a duplicate or late
 * event changes nothing.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const intent = event.detail.data.object as Stripe.PaymentIntent;
  if (intent.metadata.tipForJob) {
    // A tip confirmed on the card step: settled here unless the app's request already did (tips.ts).
    const settled = await settleTipOfIntent(intent);
    if (!settled) await settleMovement(jobScope(intent.metadata.tipForJob), 'tip_charge', intent.id);
    await markProcessed(event.detail.id);
    logger.info('tip payment succeeded handled', { jobId: intent.metadata.tipForJob, settled });
    return;
  }
  try {
    const { job, opened } = await openPaidJob(intent.id, event.detail.id);
    if (!opened) {
      // Opened by the poster's confirmation first: Stripe now confirms the ledger's charge.
      await settleMovement(jobScope(job.id), 'charge', intent.id);
      await markProcessed(event.detail.id);
    }
    logger.info('payment succeeded handled', { jobId: job.id, opened });
  } catch (error) {
    // A payment for a job that no longer exists (e.g. a draft deleted meanwhile): nothing to open.
    if (!(error instanceof HttpError && error.status === 404)) throw error;
    await markProcessed(event.detail.id);
  }
}

export const handler = withLogContext(handle);
