import type { ApiThrottle, RouteThrottle } from '../../functions/api-throttles.js';

/** What API Gateway answers a throttled HTTP request (status 429), and sends a throttled WebSocket message back. */
export const TOO_MANY_REQUESTS = 'Too Many Requests';

/** No throttle: for the benches and tests that load a gateway beyond one stage's throttle on purpose. */
export const UNTHROTTLED: ApiThrottle = { default: { rateLimit: Infinity, burstLimit: Infinity } };

/** One route's bucket of `burstLimit` tokens refilled at `rateLimit` per second. */
function tokenBucket({ rateLimit, burstLimit }: RouteThrottle): () => boolean {
  let tokens = burstLimit;
  let refilledAt = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(burstLimit, tokens + ((now - refilledAt) / 1000) * rateLimit);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * A stage's throttle as API Gateway applies it (functions/api-throttles.ts): each route has a
 * bucket of its own, at the throttle the stage names for it or else the stage's default; each
 * request takes a token of its route's bucket, and a request that finds none is throttled.
 */
export function stageThrottle(throttle: ApiThrottle): { admit(routeKey: string): boolean } {
  const buckets = new Map<string, () => boolean>();
  return {
    admit(routeKey) {
      let bucket = buckets.get(routeKey);
      if (!bucket) buckets.set(routeKey, (bucket = tokenBucket(throttle.routes?.[routeKey] ?? throttle.default)));
      return bucket();
    },
  };
}
