import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { httpErrorFromStripe } from '../../functions/lib/stripe-errors.js';

const { errors } = Stripe;

describe('every Stripe error class answers a clear 4xx, a 503 to retry (with Retry-After) or a 502, with the spec texts', () => {
  it.each([
    [new errors.StripeCardError({ message: 'Your card has insufficient funds.', type: 'card_error' }), 402, 'Your card has insufficient funds.'],
    [new errors.StripeCardError({ message: '', type: 'card_error' }), 402, MSG.payments.cardDeclined],
    [new errors.StripeInvalidRequestError({ message: 'No such payment_intent', type: 'invalid_request_error', code: 'resource_missing' }), 404, MSG.backend.referencedNotFound],
    [new errors.StripeInvalidRequestError({ message: 'Invalid amount', type: 'invalid_request_error' }), 400, MSG.payments.failed],
    [new errors.StripeIdempotencyError({ message: 'Keys for idempotent requests can only be used with the same parameters', type: 'idempotency_error' }), 409, MSG.backend.conflict],
    [new errors.StripeRateLimitError({ message: 'Too many requests', type: 'rate_limit_error' }), 429, MSG.payments.tooManyRequests],
    [new errors.StripeConnectionError({ message: 'socket hang up', type: 'api_error' }), 503, MSG.backend.network],
    [new errors.StripeAPIError({ message: 'Something went wrong', type: 'api_error' }), 503, MSG.payments.unavailable],
    [new errors.StripeAuthenticationError({ message: 'Invalid API Key', type: 'invalid_request_error' }), 503, MSG.payments.unavailable],
    [new errors.StripePermissionError({ message: 'Not allowed', type: 'invalid_request_error' }), 502, MSG.payments.failed],
  ])('%s', (error, status, message) => {
    const answer = httpErrorFromStripe(error);
    expect({ status: answer.status, message: answer.message }).toEqual({ status, message });
    // Only the answers that ask to be retried say when.
    expect(answer.headers?.['retry-after'] !== undefined).toBe(status === 503 || status === 429);
  });
});
