import type { StageThrottle } from '../../functions/routes.js';

/** What API Gateway answers a throttled HTTP request (status 429), and sends a throttled WebSocket message back. */
export const TOO_MANY_REQUESTS = 'Too Many Requests';

/** No throttle: for the benches and tests that load a gateway beyond one stage's throttle on purpose. */
export const UNTHROTTLED: StageThrottle = { rateLimit: Infinity, burstLimit: Infinity };

/**
 * A stage's throttle as API Gateway applies it (functions/routes.ts API_STAGE_THROTTLE): a
 * bucket of `burstLimit` tokens refilled at `rateLimit` per second; each request takes one, and
 * a request that finds none is throttled.
 */
export function stageThrottle({ rateLimit, burstLimit }: StageThrottle): { admit(): boolean } {
  let tokens = burstLimit;
  let refilledAt = performance.now();
  return {
    admit() {
      const now = performance.now();
      tokens = Math.min(burstLimit, tokens + ((now - refilledAt) / 1000) * rateLimit);
      refilledAt = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
