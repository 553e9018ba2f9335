import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { MSG } from '../../../shared/messages.js';
import { EVENT_SOURCE, STRIPE_VERSION_METRIC, STRIPE_WEBHOOK_ENDPOINTS, type StripeWebhookEndpoint } from '../../routes.js';
import { badRequest } from '../../lib/errors.js';
import { routeGroup, type HttpRequest } from '../../lib/http.js';
import { logger } from '../../lib/logger.js';
import { publishEvent } from '../../lib/outbox.js';
import { STRIPE_API_VERSION, stripeKeys, stripeModule, verifiedEvent } from '../../lib/stripe.js';

const metrics = new Metrics({ namespace: STRIPE_VERSION_METRIC.namespace, serviceName: STRIPE_VERSION_METRIC.service });

/**
 * An event of another API version has other shapes than the handlers read: refused (Stripe
 * retries it for three days, time to re-pin the endpoint: docs/deploy.md), logged, and counted
 * for its alarm.
 */
function refuseOtherVersion(endpoint: StripeWebhookEndpoint, eventId: string, apiVersion: string | null) {
  logger.error('Stripe event of another API version refused', { endpoint, eventId, apiVersion, pinned: STRIPE_API_VERSION });
  metrics.addDimension(STRIPE_VERSION_METRIC.dimension, process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'unknown');
  metrics.addMetric(STRIPE_VERSION_METRIC.name, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
  return badRequest(MSG.backend.stripeApiVersion);
}

/**
 * Verifies a delivery with the signing secret of the endpoint it came to (over the raw body),
 * checks it is of the pinned API version, and writes the event to the outbox, from where rules route it to its handler. A bad
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
  if (stripeEvent.api_version !== STRIPE_API_VERSION) throw refuseOtherVersion(endpoint, stripeEvent.id, stripeEvent.api_version);
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
