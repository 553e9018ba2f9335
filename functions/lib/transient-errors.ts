import { MSG } from '../../shared/messages.js';
import { HttpError } from './errors.js';
import { LostRace } from './transactions.js';

/** How long a caller is asked to wait after a dependency said "not now". */
export const TRANSIENT_RETRY_AFTER_SECONDS = 2;

/**
 * AWS's answers that mean "not now" rather than "no": throttling (once the SDK's own retries
 * ran out) and the services' internal failures. The same request later succeeds.
 */
const TRANSIENT_AWS_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
]);

/**
 * The 503 with Retry-After for a failure that says nothing about the request: DynamoDB
 * throttling, a transaction that lost its race and was not retried (or no longer could be), a
 * service failing. Undefined for any other error.
 */
export function transientHttpError(error: unknown): HttpError | undefined {
  if (!(error instanceof Error)) return undefined;
  const retryAfter = { 'retry-after': String(TRANSIENT_RETRY_AFTER_SECONDS) };
  // The function's time ran out (middy answers just before Lambda's timeout), or a call to a
  // dependency did (the SDK's request timeout): the same request may succeed in a moment.
  if (error.name === 'TimeoutError') return new HttpError(503, MSG.backend.timeout, undefined, retryAfter);
  return error instanceof LostRace || TRANSIENT_AWS_ERRORS.has(error.name) ? new HttpError(503, MSG.backend.unavailable, undefined, retryAfter) : undefined;
}
