import { createHash } from 'node:crypto';
import { StripeApiError } from './errors.js';
import type { Params } from './params.js';
import type { SimulatorStore, StoredResponse } from './store.js';

/** Stripe keeps idempotency keys for at least 24 hours; after that a key may be reused. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

/** A digest of the parameters independent of their order, to tell a retry from a different request. */
function digest(params: Params): string {
  const canonical = (value: Params | string): unknown =>
    typeof value === 'string' ? value : Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key] ?? '')]));
  return createHash('sha256').update(JSON.stringify(canonical(params))).digest('hex');
}

export interface IdempotentRequest {
  /** API key and idempotency key: Stripe scopes keys per API key. */
  scope: string;
  key: string;
  endpoint: string;
  params: Params;
}

/**
 * Stripe's idempotency layer: the first answer given for a key is stored and replayed, status and
 * body, to every later request with that key; the same key with another endpoint or other
 * parameters is an idempotency_error. Every POST is keyed, since the SDK generates a key
 * (`stripe-node-retry-<uuid>`) when the caller gives none, so that its own retries replay too.
 */
export class IdempotencyLayer {
  constructor(private readonly store: SimulatorStore) {}

  /** The stored answer to replay, if the key was used before. */
  replay(request: IdempotentRequest): StoredResponse | undefined {
    const stored = this.store.data.idempotentResponses[request.scope];
    if (!stored || Date.now() - stored.storedAt > RETENTION_MS) return undefined;
    const retry = `Try using a key other than '${request.key}' if you meant to execute a different request.`;
    if (stored.endpoint !== request.endpoint) {
      throw new StripeApiError(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.endpoint}' vs '${request.endpoint}'). ${retry}`,
      });
    }
    if (stored.paramsDigest !== digest(request.params)) {
      throw new StripeApiError(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. ${retry}` });
    }
    return stored;
  }

  remember(request: IdempotentRequest, answer: { status: number; body: unknown; requestId: string }): void {
    const responses = this.store.data.idempotentResponses;
    const now = Date.now();
    for (const [scope, stored] of Object.entries(responses)) {
      if (now - stored.storedAt > RETENTION_MS) delete responses[scope];
    }
    responses[request.scope] = { endpoint: request.endpoint, paramsDigest: digest(request.params), ...answer, body: structuredClone(answer.body), storedAt: now };
  }
}
