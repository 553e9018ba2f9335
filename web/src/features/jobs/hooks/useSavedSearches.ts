import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { SavedSearch } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { queryKeys, removeById } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import type { BrowserPosition } from '../api/fetch-job-page';
import { savedSearchesQueryOptions } from '../api/fetch-saved-searches';
import { removeSavedSearch } from '../api/remove-saved-search';
import { saveSearch, type SearchToSave } from '../api/save-search';

export interface SavedSearches {
  query: UseQueryResult<SavedSearch[]>;
  save(search: SearchToSave, here: BrowserPosition | null): Promise<void>;
  remove(searchId: string): Promise<void>;
}

/** The worker's saved searches with save and remove, each confirmed by a toast; `enabled` false reads nothing (other roles, signed out). */
export function useSavedSearches(enabled: boolean): SavedSearches {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({ ...savedSearchesQueryOptions(api), enabled });
  const edit = (change: (items: SavedSearch[] | undefined) => SavedSearch[] | undefined) => queryClient.setQueryData<SavedSearch[]>(queryKeys.savedSearches, change);
  return {
    query,
    async save(search, here) {
      try {
        const saved = await saveSearch(api, search, here);
        edit((items) => (items ? [...items, saved] : items));
        toast.success(MSG.search.searchSaved);
      } catch (error) {
        toast.error(apiErrorText(error, MSG.backend.unexpected));
      }
    },
    async remove(searchId) {
      try {
        await removeSavedSearch(api, searchId);
        edit((items) => removeById(items, searchId, (search) => search.id));
        toast.success(MSG.search.savedSearchRemoved);
      } catch (error) {
        toast.error(apiErrorText(error, MSG.backend.unexpected));
      }
    },
  };
}
