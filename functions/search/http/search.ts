import type { JobCardSummary, Page } from '../../../shared/api.js';
import { MSG } from '../../../shared/messages.js';
import { browseJobsQuerySchema } from '../../../shared/schemas/job.js';
import type { SearchRadius } from '../../../shared/search.js';
import { getProfile } from '../../people/profiles.js';
import { badRequest } from '../../lib/errors.js';
import type { GeoPoint } from '../../lib/geo-cells.js';
import { parseWith, routeGroup } from '../../lib/http.js';
import { searchOpenJobs } from '../job-search.js';

async function browse(query: Record<string, string>, caller?: { userId: string }): Promise<Page<JobCardSummary>> {
  const { q, category, limit, cursor, lat, lng, near, radius } = parseWith(browseJobsQuerySchema, query);
  let point: GeoPoint | undefined = lat !== undefined && lng !== undefined ? { latitude: lat, longitude: lng } : undefined;
  if (near === 'me') {
    // Only the signed-in feed knows who "me" is; the saved location is private to its owner.
    const profile = caller ? await getProfile(caller.userId) : undefined;
    if (profile?.latitude === undefined || profile.longitude === undefined) throw badRequest(MSG.search.locationNeeded);
    point = { latitude: profile.latitude, longitude: profile.longitude };
  }
  return searchOpenJobs({
    text: q,
    category,
    limit,
    cursor,
    excludePosterId: caller?.userId,
    ...(point ? { near: { point, ...(radius !== undefined ? { radiusMiles: radius as SearchRadius } : {}) } } : {}),
  });
}

export const handler = routeGroup('search', {
  /** The public landing grid: open jobs, newest first, or what a search finds (issue 46). */
  'GET /jobs': async ({ query }) => browse(query),

  /** The signed-in grid: the same without the caller's own jobs, and near their saved location on `near=me`. */
  'GET /feed/jobs': async ({ query, caller }) => browse(query, caller),
});
