import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { ApiRequestError } from '../../web/src/lib/api/client.js';
import { paymentStartError } from '../../web/src/features/jobs/payment-start-errors.js';

const textOf = (error: unknown) => (error as Error).message;

describe("the job form's payment start answers (spec 1 §8 'Payment mapping')", () => {
  it("reads a lapsed session as 'Please sign in to continue' and the general rate limit as 'Too many attempts...'", () => {
    expect(textOf(paymentStartError(new ApiRequestError(401, MSG.auth.authenticationRequired)))).toBe(MSG.payments.signInToContinue);
    const limited = paymentStartError(new ApiRequestError(429, MSG.backend.tooManyRequests, {}, 30));
    expect(limited).toMatchObject({ status: 429, message: MSG.payments.tooManyAttemptsWait, retryAfterSeconds: 30 });
  });

  it("keeps the payment's own limit and every other answer as the server gave them", () => {
    const ownLimit = new ApiRequestError(429, MSG.payments.tooManyAttempts, {}, 60);
    expect(paymentStartError(ownLimit)).toBe(ownLimit);
    const refused = new ApiRequestError(403, MSG.payments.accountNeededToPost);
    expect(paymentStartError(refused)).toBe(refused);
    const offline = new TypeError('Failed to fetch');
    expect(paymentStartError(offline)).toBe(offline);
  });
});
