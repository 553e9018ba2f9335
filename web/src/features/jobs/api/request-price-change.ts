import type { PendingPriceChange } from '../../../../../shared/api';
import type { RequestPriceChange } from '../../../../../shared/schemas/price-change';
import type { ApiClient } from '../../../lib/api/client';

/** The assigned worker asks for a new price, with a reason (issue 45). */
export const requestPriceChange = (api: ApiClient, jobId: string, request: RequestPriceChange) => api.post<PendingPriceChange>(`/jobs/${encodeURIComponent(jobId)}/price-change`, request);
