import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PriceChange } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** A job's price changes and where each ended, newest first (issue 45): its parties and the admin. */
export const fetchPriceChanges = (api: ApiClient, jobId: string) => api.get<{ items: PriceChange[] }>(`/jobs/${encodeURIComponent(jobId)}/price-changes`);

export const priceChangesQueryOptions = (api: ApiClient, jobId: string) =>
  queryOptions({ queryKey: queryKeys.jobPriceChanges(jobId), queryFn: async () => (await fetchPriceChanges(api, jobId)).items });

/** The job page's price history; read again with the job's live changes (its `['job', id]` prefix). */
export function usePriceChanges(jobId: string) {
  const api = useApi();
  return useQuery(priceChangesQueryOptions(api, jobId));
}
