import type { JobCardSummary, Page } from '../../../../../shared/api';
import type { JobCategory } from '../../../../../shared/categories';
import type { ApiClient } from '../../../lib/api/client';

/** How many jobs one page of a grid holds. */
export const JOB_PAGE_SIZE = 12;

/** The public grid (everyone's open jobs) or the signed-in feed (without the caller's own jobs). */
export type JobFeed = 'public' | 'personal';

/** What a grid is narrowed to: search words (`q`) and one category; empty means every open job. */
export interface JobFilter {
  q: string;
  category: JobCategory | null;
}

export const fetchJobPage = (api: ApiClient, feed: JobFeed, filter: JobFilter, cursor: string | null) =>
  api.get<Page<JobCardSummary>>(feed === 'public' ? '/jobs' : '/feed/jobs', { limit: JOB_PAGE_SIZE, q: filter.q, category: filter.category, cursor });
