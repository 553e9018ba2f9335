import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { takeInChargeback } from '../stripe-own-moves.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * `charge.dispute.*`: a card's chargeback, opened, funds withdrawn, closed or reinstated, taken
 * into the money process (functions/money/stripe-own-moves.ts), each step once.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const dispute = event.detail.data.object as Stripe.Dispute;
  const outcome = await takeInChargeback(dispute);
  logger.info('chargeback taken in', { eventId: event.detail.id, type: event.detail.type, disputeId: dispute.id, status: dispute.status, outcome });
}

export const handler = withLogContext(handle);
