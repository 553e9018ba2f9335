import type { JobCardSummary, Page } from '../../../../../shared/api';
import type { JobCategory } from '../../../../../shared/categories';
import type { SearchRadius } from '../../../../../shared/search';
import type { ApiClient } from '../../../lib/api/client';

/** How many jobs one page of a grid holds. */
export const JOB_PAGE_SIZE = 12;

/** The public grid (everyone's open jobs) or the signed-in feed (without the caller's own jobs). */
export type JobFeed = 'public' | 'personal';

/**
 * Where a "Near me" search measures from (issue 46): the signed-in user's saved location
 * (`me`, which the server reads) or the browser's (`here`).
 */
export type NearOrigin = 'me' | 'here';

/** What a grid is narrowed to: search words (`q`), one category, and a place with a radius; empty means every open job. */
export interface JobFilter {
  q: string;
  category: JobCategory | null;
  near: NearOrigin | null;
  radius: SearchRadius | null;
}

export interface BrowserPosition {
  latitude: number;
  longitude: number;
}

/** Whether the server orders the grid (words or a place): then a pushed job cannot be placed in it by the browser. */
export const isRankedSearch = (filter: JobFilter) => filter.q !== '' || filter.near !== null;

export const fetchJobPage = (api: ApiClient, feed: JobFeed, filter: JobFilter, cursor: string | null, here: BrowserPosition | null = null) =>
  api.get<Page<JobCardSummary>>(feed === 'public' ? '/jobs' : '/feed/jobs', {
    limit: JOB_PAGE_SIZE,
    q: filter.q,
    category: filter.category,
    cursor,
    ...(filter.near === 'me' ? { near: 'me' } : {}),
    // The browser's location, to about 100 m: enough for distances in tenths of a mile.
    ...(filter.near === 'here' && here ? { lat: here.latitude.toFixed(3), lng: here.longitude.toFixed(3) } : {}),
    ...(filter.near !== null && filter.radius !== null ? { radius: filter.radius } : {}),
  });
