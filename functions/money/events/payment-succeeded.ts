import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { markProcessed, openPaidJob } from '../job-payments.js';
import { settleTipOfIntent } from '../tips.js';
import { settleTopUpOfIntent } from '../../applications/price-changes.js';
import { settleOfferTopUpOfIntent } from '../../applications/applications.js';
import { jobScope, settleMovement } from '../ledger.js';
import { HttpError } from '../../lib/errors.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * `payment_intent.succeeded`: finishes a higher price's approval whose card step the poster
 * finished (or refunds its charge when the job moved on), goes on with a tip (its transfer or refund), or opens the paid job
 * unless the client's confirmation already did. The job change and the event's marker are one
 * transaction, so a duplicate or late event changes nothing. A payment for a draft already
 * removed is refunded (openPaidJob), once.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const intent = event.detail.data.object as Stripe.PaymentIntent;
  if (intent.metadata.topUpForJob) {
    const goneOn = intent.metadata.offerWorkerId ? await settleOfferTopUpOfIntent(intent.id, intent.metadata) : await settleTopUpOfIntent(intent.id, intent.metadata);
    await markProcessed(event.detail.id);
    logger.info('price change charge succeeded handled', { jobId: intent.metadata.topUpForJob, goneOn });
    return;
  }
  if (intent.metadata.tipForJob) {
    const goneOn = await settleTipOfIntent(intent);
    await markProcessed(event.detail.id);
    logger.info('tip payment succeeded handled', { jobId: intent.metadata.tipForJob, goneOn });
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
    // A payment for a draft already removed was refunded (409), or names no job of ours (404).
    if (!(error instanceof HttpError && (error.status === 404 || error.status === 409))) throw error;
    await markProcessed(event.detail.id);
    logger.info('payment succeeded for no open draft', { paymentIntentId: intent.id, answer: error.message });
  }
}

export const handler = withLogContext(handle);
