import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { markProcessed, markRefunded, processedMarker } from '../domain/job-payments.js';
import { withLogContext } from '../lib/logger.js';

/** `charge.refunded`: the payment row becomes refunded (once; a no-op if our call already did it). */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const charge = event.detail.data.object as Stripe.Charge;
  const paymentIntentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!charge.refunded || !paymentIntentId || !(await markRefunded(paymentIntentId, [processedMarker(event.detail.id)]))) {
    await markProcessed(event.detail.id);
  }
}

export const handler = withLogContext(handle);
