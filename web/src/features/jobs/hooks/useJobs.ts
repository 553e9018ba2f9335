import { useEffect, useReducer, useState } from 'react';
import type { JobCardSummary, JobSummary, LiveMessage, Page } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import type { ApiClient } from '../../../lib/api/client';
import { fetchJobPage, isRankedSearch, type BrowserPosition, type JobFeed, type JobFilter } from '../api/fetch-job-page';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { isOlderThanHeld } from '../../../lib/live/job-ordering';
import { useLiveReconnect, useLiveTopics, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { categoryTopic, FEED_TOPIC } from '../../../../../shared/live';
import { useToast } from '../../../lib/toast/useToast';

export interface JobsView {
  phase: 'loading' | 'ready' | 'failed';
  /** Open jobs, newest first. */
  jobs: JobCardSummary[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  retry(): void;
}

/** The grid shows only open jobs that are not the viewer's own (spec 1 §2 "Grid rules"). */
function isVisible(job: JobCardSummary, viewerId: string | null): boolean {
  return job.status === 'open' && Boolean(job.id) && job.posterId !== viewerId;
}

/**
 * Whether a pushed job belongs in a grid narrowed by category alone. A grid of words or of a place
 * is the server's answer (its search engine, its distances): a pushed job is placed there by
 * reading the first page again (`isRankedSearch`).
 */
function matchesCategory(job: JobSummary, filter: JobFilter): boolean {
  return !filter.category || job.category === filter.category;
}

// The personal feed and searches filter each page on the server, so a page can come back empty
// with more after it; follow the cursor a few times rather than show an empty grid.
const MAX_EMPTY_PAGES_SKIPPED = 5;

async function fetchFilledPage(api: ApiClient, feed: JobFeed, filter: JobFilter, here: BrowserPosition | null, cursor: string | null): Promise<Page<JobCardSummary>> {
  let page = await fetchJobPage(api, feed, filter, cursor, here);
  for (let skipped = 0; page.items.length === 0 && page.nextCursor && skipped < MAX_EMPTY_PAGES_SKIPPED; skipped++) {
    page = await fetchJobPage(api, feed, filter, page.nextCursor, here);
  }
  return page;
}

export interface JobList {
  /** Which request the list answers (feed, viewer, filter, reload); actions for another key are stale. */
  key: string | null;
  jobs: JobCardSummary[];
  nextCursor: string | null;
  failed: boolean;
  /**
   * Per job, the `updatedAt` of the last push applied, or null once it was removed: pushes arrive
   * out of order, and one older than what the grid already applied must not undo it (a card the
   * grid dropped as taken coming back as open, a removed job coming back).
   */
  pushed: Record<string, string | null>;
}

export type JobListAction =
  | { type: 'loaded' | 'appended'; key: string; page: Page<JobCardSummary>; viewerId: string | null }
  | { type: 'failed'; key: string }
  | { type: 'live'; key: string; message: LiveMessage; viewerId: string | null; filter: JobFilter };

export const NO_LIST: JobList = { key: null, jobs: [], nextCursor: null, failed: false, pushed: {} };

const byNewest = (a: JobCardSummary, b: JobCardSummary) => b.createdAt.localeCompare(a.createdAt);

/** What a card shows of a pushed job (its words as they are now; the words a search matched stay as the server marked them). */
function cardOf(job: JobSummary): JobCardSummary {
  const { id, title, description, location, payment, postedAmount, status, posterId, skills, images, verifiedWorkersOnly, openToOffers, createdAt } = job;
  return { id, title, description, location, payment, postedAmount, status, posterId, skills, images, verifiedWorkersOnly, openToOffers, createdAt };
}

function applyLiveMessage(list: JobList, message: LiveMessage, viewerId: string | null, filter: JobFilter): JobList {
  if (message.type !== 'job.posted' && message.type !== 'job.updated' && message.type !== 'job.removed') return list;
  const changedId = message.type === 'job.removed' ? message.jobId : message.job.id;
  const last = list.pushed[changedId];
  if (last === null || (message.type !== 'job.removed' && last !== undefined && isOlderThanHeld(message.job, { updatedAt: last }))) return list;
  const pushed = { ...list.pushed, [changedId]: message.type === 'job.removed' ? null : message.job.updatedAt };
  const others = list.jobs.filter((job) => job.id !== changedId);
  if (message.type === 'job.removed' || !isVisible(message.job, viewerId) || !matchesCategory(message.job, filter)) {
    return { ...list, jobs: others.length === list.jobs.length ? list.jobs : others, pushed };
  }
  if (isRankedSearch(filter)) {
    // The server placed each card (and measured its distance, marked its words): a change updates a
    // card in place; a job not shown is for the server to place (useJobs reads the first page again).
    const jobs = list.jobs.map((job) => (job.id === changedId ? { ...job, ...cardOf(message.job) } : job));
    return { ...list, jobs, pushed };
  }
  const oldestLoaded = list.jobs.at(-1);
  const wasListed = others.length !== list.jobs.length;
  // A job older than everything loaded so far arrives with its page on "Load more" instead.
  if (!wasListed && list.nextCursor && oldestLoaded && message.job.createdAt < oldestLoaded.createdAt) return { ...list, pushed };
  return { ...list, jobs: [...others, message.job].sort(byNewest), pushed };
}

export function jobListReducer(list: JobList, action: JobListAction): JobList {
  switch (action.type) {
    case 'loaded':
      return {
        key: action.key,
        jobs: action.page.items.filter((job) => isVisible(job, action.viewerId)),
        nextCursor: action.page.nextCursor,
        failed: false,
        // A reload of the same list keeps what pushes taught it; another list starts afresh.
        pushed: action.key === list.key ? list.pushed : {},
      };
    case 'failed':
      return { ...NO_LIST, key: action.key, failed: true };
    case 'appended': {
      if (action.key !== list.key) return list;
      const known = new Set(list.jobs.map((job) => job.id));
      const fresh = action.page.items.filter((job) => !known.has(job.id) && isVisible(job, action.viewerId));
      return { ...list, jobs: [...list.jobs, ...fresh], nextCursor: action.page.nextCursor };
    }
    case 'live':
      return action.key === list.key ? applyLiveMessage(list, action.message, action.viewerId, action.filter) : list;
  }
}

/**
 * A grid's open jobs, narrowed by `filter`: the first page on mount, more on demand, kept in
 * sync with the server's live pushes (new jobs on top, changes applied, removals dropped) and
 * re-read after the live connection was lost. `feed` null waits (e.g. while the session is
 * still being restored), as does a search near the browser's position until `here` is known.
 */
export function useJobs(feed: JobFeed | null, filter: JobFilter, here: BrowserPosition | null = null): JobsView {
  const api = useApi();
  const toast = useToast();
  const { userId: viewerId } = useAuth();
  const [generation, setGeneration] = useState(0);
  const [list, dispatch] = useReducer(jobListReducer, NO_LIST);
  const [loadingMore, setLoadingMore] = useState(false);
  const { q, category, near, radius } = filter;
  const waiting = feed === null || (near === 'here' && here === null);
  const key = waiting ? null : JSON.stringify([feed, viewerId, q, category, near, radius, near === 'here' ? here : null, generation]);
  const phase = list.key !== key ? 'loading' : list.failed ? 'failed' : 'ready';

  useEffect(() => {
    if (feed === null || key === null) return;
    let active = true;
    fetchFilledPage(api, feed, { q, category, near, radius }, here, null).then(
      (page) => active && dispatch({ type: 'loaded', key, page, viewerId }),
      () => {
        if (!active) return;
        dispatch({ type: 'failed', key });
        toast.error(MSG.jobs.loadFailed);
      },
    );
    return () => {
      active = false;
    };
  }, [api, feed, key, viewerId, q, category, near, radius, here, toast]);

  /** The first page read again in place: after a missed stretch of pushes, or for a job only the server can place. */
  function reloadFirstPage(then?: (page: Page<JobCardSummary>) => void): void {
    if (feed === null || key === null) return;
    fetchFilledPage(api, feed, filter, here, null).then(
      (page) => {
        dispatch({ type: 'loaded', key, page, viewerId });
        then?.(page);
      },
      () => undefined, // the grid keeps what it shows; the next push or visit tries again
    );
  }

  // A category narrows the grid's pushes in the browser: any new open job may match it.
  useLiveTopics(feed === null ? [] : [category ? categoryTopic(category) : FEED_TOPIC]);
  useLiveUpdates((message) => {
    // Until the first page is in, that page brings the current state anyway.
    if (phase !== 'ready' || key === null || message.type === 'notification') return;
    dispatch({ type: 'live', key, message, viewerId, filter });
    if (message.type === 'job.posted' && isVisible(message.job, viewerId) && matchesCategory(message.job, filter)) {
      if (!isRankedSearch(filter)) toast.info(MSG.jobs.newJobLive);
      // Whether it matches the words or lies within the radius is the server's to say.
      else reloadFirstPage((page) => page.items.some((job) => job.id === message.job.id) && toast.info(MSG.jobs.newJobLive));
    }
    if (message.type === 'job.removed' && list.jobs.some((job) => job.id === message.jobId)) toast.info(MSG.jobs.removedLive);
  });

  // The server sent what the socket missed while it was down, unless it could not tell:
  // then the first page is read again, in place.
  useLiveReconnect((caughtUp) => {
    if (caughtUp || phase !== 'ready') return;
    reloadFirstPage();
  });

  function loadMore(): void {
    if (feed === null || key === null || phase !== 'ready' || !list.nextCursor || loadingMore) return;
    setLoadingMore(true);
    fetchFilledPage(api, feed, filter, here, list.nextCursor)
      .then(
        (page) => dispatch({ type: 'appended', key, page, viewerId }),
        () => toast.error(MSG.jobs.loadFailed),
      )
      .finally(() => setLoadingMore(false));
  }

  return {
    phase,
    jobs: phase === 'ready' ? list.jobs : [],
    hasMore: phase === 'ready' && list.nextCursor !== null,
    loadingMore,
    loadMore,
    retry: () => setGeneration((current) => current + 1),
  };
}
