import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { settleInstantPayout } from '../instant-payouts.js';
import { logger, withLogContext } from '../../lib/logger.js';

/** `payout.paid` / `payout.failed` of a connected account: how a worker's Instant Payout ended, or their automatic payout taken into the ledger. */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const payout = event.detail.data.object as Stripe.Payout;
  const outcome = await settleInstantPayout(payout, event.detail.account);
  logger.info('instant payout settled', { eventId: event.detail.id, payoutId: payout.id, status: payout.status, outcome });
}

export const handler = withLogContext(handle);
