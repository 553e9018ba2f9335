import { MSG } from '../../shared/messages.js';
import { EVENT_SOURCE } from '../routes.js';
import { badRequest } from '../lib/errors.js';
import { routeGroup } from '../lib/http.js';
import { publishEvent } from '../lib/outbox.js';
import { stripe, stripeKeys } from '../lib/stripe.js';

/**
 * Stripe's webhook endpoint. The signature is checked on the raw body (API Gateway hands it
 * over base64-encoded for some content types); a verified event goes through the outbox to the bus, where rules
 * route it to its handler. A bad signature is answered 400 and nothing is written.
 */
export const handler = routeGroup('stripeWebhook', {
  'POST /webhooks/stripe': async ({ event }) => {
    const rawBody = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
    const signature = event.headers['stripe-signature'] ?? '';
    const { webhookSecret } = await stripeKeys();
    let stripeEvent;
    try {
      stripeEvent = (await stripe()).webhooks.constructEvent(rawBody, signature, webhookSecret);
    } catch {
      throw badRequest(MSG.backend.invalidSignature);
    }
    // Once the event is in the outbox its delivery is certain; if the write fails, the 500
    // makes Stripe send it again.
    await publishEvent(EVENT_SOURCE.stripe, stripeEvent.type, stripeEvent);
    return { received: true };
  },
});
