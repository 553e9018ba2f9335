import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { moneyStateOf } from '../../shared/job-process.js';
import { decideRefund, settleRefund } from '../domain/job-money.js';
import { jobOfPayment, markProcessed, processedMarker } from '../domain/job-payments.js';
import { jobScope, settleMovement } from '../domain/ledger.js';
import { HttpError } from '../lib/errors.js';
import { withLogContext } from '../lib/logger.js';

/**
 * `charge.refunded`: Stripe confirms a refund. A refund the job process decided is settled here
 * if its call has not yet (or its ledger movement marked settled); a refund made outside the
 * process (Stripe's dashboard) of money still held is taken into it — the job cancelled, no
 * release after it — so the platform never pays a job it no longer holds the money of.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const charge = event.detail.data.object as Stripe.Charge;
  const paymentIntentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  const refund = charge.refunds?.data?.[0];
  const job = paymentIntentId ? await jobOfPayment(paymentIntentId).catch((error: unknown) => (error instanceof HttpError ? undefined : Promise.reject(error))) : undefined;
  if (!job || !refund) return void (await markProcessed(event.detail.id));
  const money = moneyStateOf(job);
  const marker = [processedMarker(event.detail.id)];
  if (money === 'refunding') {
    await settleRefund(job, { settled: true, extra: marker });
  } else if (money === 'held' && charge.refunded) {
    const decided = await decideRefund(job, { action: 'refund', reason: 'Refunded in Stripe' });
    await settleRefund(decided, { settled: true, extra: marker, made: { id: refund.id, amount: charge.amount_refunded } });
  } else {
    await settleMovement(jobScope(job.id), 'refund', refund.id);
    await markProcessed(event.detail.id);
  }
}

export const handler = withLogContext(handle);
