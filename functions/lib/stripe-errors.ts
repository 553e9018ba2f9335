import type Stripe from 'stripe';
import { MSG } from '../../shared/messages.js';
import { HttpError } from './errors.js';

/** How long a caller is asked to wait while Stripe is unreachable or failing. */
const STRIPE_RETRY_AFTER_SECONDS = 5;

/**
 * Every Stripe failure a request can meet, answered with the spec's text (spec 1 "Card
 * errors", spec 2 §8): the caller's mistakes are 4xx, Stripe unreachable or failing a 503 to
 * retry (a refused key too: a rotation under way), our account's setup a 502. The HTTP layer
 * applies it to any StripeError an operation lets through, so no route needs to catch them one
 * by one.
 */
export function httpErrorFromStripe(error: Stripe.errors.StripeError): HttpError {
  switch (error.type) {
    case 'StripeCardError':
      return new HttpError(402, error.message || MSG.payments.cardDeclined);
    case 'StripeInvalidRequestError':
      // An id Stripe does not know (a forged payment id, another platform's object).
      if (error.code === 'resource_missing') return new HttpError(404, MSG.backend.referencedNotFound);
      return new HttpError(400, MSG.payments.failed);
    case 'StripeIdempotencyError':
      // The same operation asked again with other parameters (e.g. a second refund reason).
      return new HttpError(409, MSG.backend.conflict);
    case 'StripeRateLimitError':
      return new HttpError(429, MSG.payments.tooManyRequests, undefined, { 'retry-after': '1' });
    case 'StripeConnectionError':
      // Stripe unreachable or not answering in time: the same request later goes through (its
      // idempotency key makes a retried money move happen once).
      return new HttpError(503, MSG.backend.network, undefined, { 'retry-after': String(STRIPE_RETRY_AFTER_SECONDS) });
    case 'StripeAPIError':
      // Stripe's own failure (its 500s, after the SDK's retry).
      return new HttpError(503, MSG.payments.unavailable, undefined, { 'retry-after': String(STRIPE_RETRY_AFTER_SECONDS) });
    case 'StripeSignatureVerificationError':
      return new HttpError(400, MSG.backend.invalidSignature);
    case 'StripeAuthenticationError':
      // Our key refused: most likely expired by a rotation before this function read the new
      // one, which the retry reads (lib/stripe.ts). A key wrong for good keeps answering this,
      // and its 5xx alarm tells the operator.
      return new HttpError(503, MSG.payments.unavailable, undefined, { 'retry-after': String(STRIPE_RETRY_AFTER_SECONDS) });
    default:
      // Permission errors (our account's setup), and any newer class.
      return new HttpError(502, MSG.payments.failed);
  }
}

/**
 * Recognised by shape, not `instanceof`: every HTTP function imports this module, and loading
 * the `stripe` package only to compare classes would add it to the cold start of the many
 * functions that never call Stripe. Stripe's error classes all carry a `type` 'Stripe…'.
 */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  const type: unknown = error instanceof Error ? (error as Error & { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('Stripe');
}
