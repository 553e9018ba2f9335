import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { releaseBlockedWhenReady } from '../auto-release.js';
import { markProcessed } from '../job-payments.js';
import { savePaymentAccount, userOfAccount } from '../payment-accounts.js';
import { stripe } from '../../lib/stripe.js';
import { withLogContext } from '../../lib/logger.js';

/**
 * `account.updated`: saves the account's state on its user's profile. It re-reads the account
 * from Stripe rather than trusting the event, so events arriving late or out of order leave
 * the newest state.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const accountId = (event.detail.data.object as Stripe.Account).id;
  const userId = await userOfAccount(accountId);
  // A worker whose account is ready now receives the auto-releases it held back.
  if (userId) await releaseBlockedWhenReady(userId, await savePaymentAccount(userId, await (await stripe()).accounts.retrieve(accountId)));
  await markProcessed(event.detail.id);
}

export const handler = withLogContext(handle);
