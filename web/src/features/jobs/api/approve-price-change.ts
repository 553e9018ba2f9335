import type { PartyJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster approves the price change at the amount shown: the difference is refunded, then the job has its new price. */
export const approvePriceChange = (api: ApiClient, jobId: string, amount: number) => api.post<PartyJob>(`/jobs/${encodeURIComponent(jobId)}/price-change/approve`, { amount });
