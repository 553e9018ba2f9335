import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { TRANSIENT_RETRY_AFTER_SECONDS, transientHttpError } from '../../functions/lib/transient-errors.js';

/** An error as its library names it (middy's early timeout, the SDK's, a service's). */
const named = (name: string) => Object.assign(new Error(name), { name });

describe('transient errors', () => {
  it("answers a function's or a dependency's timeout 503 with Retry-After and the spec's timeout text", () => {
    // The name middy gives its error just before Lambda's timeout, and the SDK its request timeout.
    expect(transientHttpError(named('TimeoutError'))).toMatchObject({ status: 503, message: MSG.backend.timeout, headers: { 'retry-after': String(TRANSIENT_RETRY_AFTER_SECONDS) } });
  });

  it('answers throttling 503 with the busy text, and leaves other errors alone (a 500 that is logged)', () => {
    expect(transientHttpError(named('ThrottlingException'))).toMatchObject({ status: 503, message: MSG.backend.unavailable });
    expect(transientHttpError(named('TypeError'))).toBeUndefined();
    expect(transientHttpError('not an error')).toBeUndefined();
  });
});
