import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DisputeThread } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { disputeKeys } from './dispute-keys';

export const fetchDisputeThread = (api: ApiClient, disputeId: string) => api.get<DisputeThread>(`/disputes/${encodeURIComponent(disputeId)}/messages`);

export const disputeThreadQueryOptions = (api: ApiClient, disputeId: string) =>
  queryOptions({ queryKey: disputeKeys.thread(disputeId), queryFn: () => fetchDisputeThread(api, disputeId) });

/** One dispute and its thread, oldest first. */
export function useDisputeThread(disputeId: string) {
  return useQuery(disputeThreadQueryOptions(useApi(), disputeId));
}
