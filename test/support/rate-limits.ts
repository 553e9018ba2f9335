import { RATE_LIMITS, type RateLimitName } from '../../shared/limits.js';

/**
 * Waits for the limit's next fixed window (functions/lib/rate-limit.ts) when fewer than
 * `marginSeconds` are left in this one: a test's calls then all fall in one window, and none
 * is let through, or refused, by a reset in their midst.
 */
export async function awaitFreshWindow(limit: RateLimitName, marginSeconds: number): Promise<void> {
  const windowMs = RATE_LIMITS[limit].windowSeconds * 1000;
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < marginSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
}
