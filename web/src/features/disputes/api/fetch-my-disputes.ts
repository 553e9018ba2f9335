import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dispute } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { disputeKeys } from './dispute-keys';

export const fetchMyDisputes = (api: ApiClient) => api.get<{ items: Dispute[] }>('/me/disputes');

export const myDisputesQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: disputeKeys.mine, queryFn: async () => (await fetchMyDisputes(api)).items });

/** The disputes where the signed-in user is reporter or reported, newest first. */
export function useMyDisputes() {
  return useQuery(myDisputesQueryOptions(useApi()));
}
