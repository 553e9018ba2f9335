import type { ApiClient } from '../../../lib/api/client';

/** The poster declines the price change, with a reason if they give one. */
export const declinePriceChange = (api: ApiClient, jobId: string, reason: string) =>
  api.post<void>(`/jobs/${encodeURIComponent(jobId)}/price-change/decline`, reason.trim() ? { reason: reason.trim() } : {});
