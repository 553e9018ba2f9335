import type { SavedSearch } from '../../../../../shared/api';
import type { JobCategory } from '../../../../../shared/categories';
import type { ApiClient } from '../../../lib/api/client';
import type { BrowserPosition } from './fetch-job-page';

export interface SearchToSave {
  text: string;
  category: JobCategory | null;
  radiusMiles: number;
}

/** Keeps a search (issue 46): around the saved location, or `here` (the browser's) when the search was near it. */
export const saveSearch = (api: ApiClient, search: SearchToSave, here: BrowserPosition | null) =>
  api.post<SavedSearch>('/me/saved-searches', { ...search, ...(here ? { latitude: here.latitude, longitude: here.longitude } : {}) });
