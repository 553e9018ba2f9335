import type { PriceChangeAnswer } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/**
 * The poster approves the price change at the amount shown: the difference is refunded or
 * charged, then the job has its new price — or the card step a higher price's charge waits for.
 */
export const approvePriceChange = (api: ApiClient, jobId: string, amount: number) => api.post<PriceChangeAnswer>(`/jobs/${encodeURIComponent(jobId)}/price-change/approve`, { amount });
