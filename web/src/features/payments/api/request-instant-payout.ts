import type { InstantPayout } from '../../../../../shared/payouts';
import type { ApiClient } from '../../../lib/api/client';

/** 'Cash out now': `idempotencyKey` is the same for every retry of one confirmation, so they make one payout. */
export const requestInstantPayout = (api: ApiClient, amount: number, idempotencyKey: string) => api.post<InstantPayout>('/me/payouts/instant', { amount, idempotencyKey });
