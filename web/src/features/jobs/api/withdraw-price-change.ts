import type { ApiClient } from '../../../lib/api/client';

/** The worker withdraws their price change while it waits. */
export const withdrawPriceChange = (api: ApiClient, jobId: string) => api.delete<void>(`/jobs/${encodeURIComponent(jobId)}/price-change`);
