import { env } from './env.js';
import { countAttempt, type RateDecision } from './rate-limit.js';

/**
 * Spends one of a client's budget for the minute (shared/limits.ts `clientWrites` and
 * `clientConnects`): one atomic ADD on the client's own counter item, TTL'd with its window, so
 * the writes spread over every user's (or IP's) partition and none is hot. The limit is the
 * deploy's `clientBudgetPerMinute` setting.
 */
export async function spendClientBudget(kind: 'clientWrites' | 'clientConnects', client: string): Promise<RateDecision> {
  const limit = Number(env('clientBudgetPerMinute'));
  // No budget (a stack started without one, as the benches do): nothing to count.
  if (limit === Infinity) return { allowed: true, count: 0, retryAfterSeconds: 0 };
  return countAttempt(kind, client, limit);
}
