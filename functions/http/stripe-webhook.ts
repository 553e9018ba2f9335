import { MSG } from '../../shared/messages.js';
import { EVENT_SOURCE, STRIPE_WEBHOOK_ENDPOINTS, type StripeWebhookEndpoint } from '../routes.js';
import { badRequest } from '../lib/errors.js';
import { routeGroup, type HttpRequest } from '../lib/http.js';
import { publishEvent } from '../lib/outbox.js';
import { stripeKeys, stripeModule, verifiedEvent } from '../lib/stripe.js';

/**
 * Verifies a delivery with the signing secret of the endpoint it came to (over the raw body)
 * and writes the event to the outbox, from where rules route it to its handler. A bad
 * signature is answered 400 and nothing is written; once the event is in the outbox its
 * delivery is certain, and if that write fails the 500 makes Stripe send it again.
 */
async function receive({ event, rawBody }: HttpRequest, endpoint: StripeWebhookEndpoint) {
  const signature = event.headers['stripe-signature'] ?? '';
  const [keys, StripeClient] = await Promise.all([stripeKeys(), stripeModule()]);
  const secret = STRIPE_WEBHOOK_ENDPOINTS[endpoint].secret;
  const previous = keys[secret === 'webhookSecret' ? 'previousWebhookSecret' : 'previousConnectWebhookSecret'];
  const stripeEvent = verifiedEvent(StripeClient, rawBody, signature, [keys[secret], ...(previous ? [previous] : [])]);
  if (!stripeEvent) throw badRequest(MSG.backend.invalidSignature);
  await publishEvent(EVENT_SOURCE.stripe, stripeEvent.type, stripeEvent);
  return { received: true };
}

/**
 * Stripe's two webhook endpoints, each with its own signing secret: the account's endpoint
 * receives the platform's own events (payments, refunds, transfers); the Connect endpoint
 * receives events of connected accounts (`account.updated`, their payouts' `payout.paid` and
 * `payout.failed`), which Stripe sends nowhere else.
 */
export const handler = routeGroup('stripeWebhook', {
  'POST /webhooks/stripe': async (request) => receive(request, 'account'),
  'POST /webhooks/stripe/connect': async (request) => receive(request, 'connect'),
});
