import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { takeInRefund } from '../stripe-own-moves.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * `refund.created`: a refund of one of the money process's decisions finishes that decision; a
 * refund made in Stripe's dashboard is taken into the process (functions/money/stripe-own-moves.ts).
 * Once whatever Stripe repeats: the ledger's movement of the refund is written once. While the
 * job's money waits for another decision, the handler carries that out first; only while Stripe
 * fails it does the handler fail, and the bus delivers it again.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const refund = event.detail.data.object as Stripe.Refund;
  const outcome = await takeInRefund(refund);
  logger.info('refund taken in', { eventId: event.detail.id, refundId: refund.id, outcome });
}

export const handler = withLogContext(handle);
