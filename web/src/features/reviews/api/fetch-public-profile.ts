import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { PublicProfile } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

export const fetchPublicProfile = (api: ApiClient, userId: string) => api.get<PublicProfile>(`/profiles/${encodeURIComponent(userId)}`);

export const publicProfileQueryOptions = (api: ApiClient, userId: string) =>
  queryOptions({ queryKey: queryKeys.profile(userId), queryFn: () => fetchPublicProfile(api, userId) });

/** A user's public profile with their current rating (read again when a review about them is saved). */
export function useRatedProfile(userId: string | null): UseQueryResult<PublicProfile> {
  return useQuery({ ...publicProfileQueryOptions(useApi(), userId ?? ''), enabled: userId !== null });
}
