import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { withLogContext } from '../../lib/logger.js';
import { takeInVerificationSession } from '../identity.js';

/**
 * `identity.verification_session.*`: the user's identity check moved at Stripe. The session is
 * read again from Stripe (functions/people/identity.ts), so a replay, a duplicate or an event
 * older than one already taken in changes nothing.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  await takeInVerificationSession((event.detail.data.object as Stripe.Identity.VerificationSession).id);
}

export const handler = withLogContext(handle);
