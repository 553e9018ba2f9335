import { MSG } from '../../../../shared/messages';
import { ApiRequestError } from '../../lib/api/client';

/**
 * Spec 1 §8 "Payment mapping": the session's end and the general rate limit read as the payment
 * step's own texts; the payment's own limit ('Too many payment attempts for this job...') and
 * every other answer keep theirs.
 */
export function paymentStartError(error: unknown): unknown {
  if (!(error instanceof ApiRequestError)) return error;
  if (error.status === 401) return new ApiRequestError(401, MSG.payments.signInToContinue);
  if (error.status === 429 && error.message === MSG.backend.tooManyRequests) return new ApiRequestError(429, MSG.payments.tooManyAttemptsWait, error.fields, error.retryAfterSeconds);
  return error;
}
