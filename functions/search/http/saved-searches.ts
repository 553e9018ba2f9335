import { savedSearchSchema } from '../../../shared/schemas/search.js';
import { routeGroup } from '../../lib/http.js';
import { listSavedSearches, removeSavedSearch, saveSearch } from '../saved-searches.js';

export const handler = routeGroup('savedSearches', {
  /** The worker's saved searches, oldest first (the notification settings page lists them). */
  'GET /me/saved-searches': async ({ caller }) => ({ items: await listSavedSearches(caller.userId) }),

  /** "Save this search" on the grid: at most ten, each around the worker's saved location or the browser's. */
  'POST /me/saved-searches': async ({ caller, body }) => ({ status: 201, body: await saveSearch(caller.userId, body(savedSearchSchema)) }),

  'DELETE /me/saved-searches/{id}': async ({ caller, params }) => {
    await removeSavedSearch(caller.userId, params.id ?? '');
    return { status: 204 };
  },
});
