import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DisputeCenterState } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { disputeKeys } from './dispute-keys';

export const fetchDisputeCenter = (api: ApiClient, jobId: string) => api.get<DisputeCenterState>(`/jobs/${encodeURIComponent(jobId)}/dispute`);

export const disputeCenterQueryOptions = (api: ApiClient, jobId: string) =>
  queryOptions({ queryKey: disputeKeys.center(jobId), queryFn: () => fetchDisputeCenter(api, jobId) });

/** What the Dispute Center shows for a job. */
export function useDisputeCenter(jobId: string) {
  return useQuery(disputeCenterQueryOptions(useApi(), jobId));
}
