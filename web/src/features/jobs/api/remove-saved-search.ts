import type { ApiClient } from '../../../lib/api/client';

export const removeSavedSearch = (api: ApiClient, searchId: string) => api.delete<void>(`/me/saved-searches/${encodeURIComponent(searchId)}`);
