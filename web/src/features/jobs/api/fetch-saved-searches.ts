import { queryOptions } from '@tanstack/react-query';
import type { SavedSearch } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';

/** The worker's saved searches, oldest first (issue 46). */
export const fetchSavedSearches = (api: ApiClient) => api.get<{ items: SavedSearch[] }>('/me/saved-searches');

export const savedSearchesQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: queryKeys.savedSearches, queryFn: async () => (await fetchSavedSearches(api)).items });
