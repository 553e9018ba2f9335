import { useEffect, useReducer, useState } from 'react';
import type { JobSummary, Page } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import type { ApiClient } from '../api/client';
import { fetchJobPage, type JobFeed } from '../api/endpoints';
import type { LiveMessage } from '../live/socket';
import { useApi } from './useApi';
import { useAuth } from './useAuth';
import { useLiveUpdates } from './useLiveUpdates';
import { useToast } from './useToast';

export interface JobsView {
  phase: 'loading' | 'ready' | 'failed';
  /** Open jobs, newest first. */
  jobs: JobSummary[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  retry(): void;
}

/** The grid shows only open jobs that are not the viewer's own (spec 1 §2 "Grid rules"). */
function isListed(job: JobSummary, viewerId: string | null): boolean {
  return job.status === 'open' && Boolean(job.id) && job.posterId !== viewerId;
}

// The personal feed filters the viewer's own jobs out of each page, so a page can come back empty
// with more after it; follow the cursor a few times rather than show an empty grid.
const MAX_EMPTY_PAGES_SKIPPED = 5;

async function fetchFilledPage(api: ApiClient, feed: JobFeed, cursor: string | null): Promise<Page<JobSummary>> {
  let page = await fetchJobPage(api, feed, cursor);
  for (let skipped = 0; page.items.length === 0 && page.nextCursor && skipped < MAX_EMPTY_PAGES_SKIPPED; skipped++) {
    page = await fetchJobPage(api, feed, page.nextCursor);
  }
  return page;
}

interface JobList {
  /** Which request the list answers (feed, viewer, reload); actions for another key are stale. */
  key: string | null;
  jobs: JobSummary[];
  nextCursor: string | null;
  failed: boolean;
}

type JobListAction =
  | { type: 'loaded'; key: string; page: Page<JobSummary>; viewerId: string | null }
  | { type: 'appended'; key: string; page: Page<JobSummary>; viewerId: string | null }
  | { type: 'failed'; key: string }
  | { type: 'live'; key: string; message: LiveMessage; viewerId: string | null };

const NO_LIST: JobList = { key: null, jobs: [], nextCursor: null, failed: false };

const byNewest = (a: JobSummary, b: JobSummary) => b.createdAt.localeCompare(a.createdAt);

function applyLiveMessage(list: JobList, message: LiveMessage, viewerId: string | null): JobList {
  const changedId = message.type === 'job.removed' ? message.jobId : message.job.id;
  const others = list.jobs.filter((job) => job.id !== changedId);
  if (message.type === 'job.removed' || !isListed(message.job, viewerId)) return { ...list, jobs: others };
  const oldestLoaded = list.jobs.at(-1);
  const wasListed = others.length !== list.jobs.length;
  // A job older than everything loaded so far arrives with its page on "Load more" instead.
  if (!wasListed && list.nextCursor && oldestLoaded && message.job.createdAt < oldestLoaded.createdAt) return list;
  return { ...list, jobs: [...others, message.job].sort(byNewest) };
}

function jobListReducer(list: JobList, action: JobListAction): JobList {
  switch (action.type) {
    case 'loaded':
      return {
        key: action.key,
        jobs: action.page.items.filter((job) => isListed(job, action.viewerId)),
        nextCursor: action.page.nextCursor,
        failed: false,
      };
    case 'failed':
      return { ...NO_LIST, key: action.key, failed: true };
    case 'appended': {
      if (action.key !== list.key) return list;
      const known = new Set(list.jobs.map((job) => job.id));
      const fresh = action.page.items.filter((job) => !known.has(job.id) && isListed(job, action.viewerId));
      return { ...list, jobs: [...list.jobs, ...fresh], nextCursor: action.page.nextCursor };
    }
    case 'live':
      return action.key === list.key ? applyLiveMessage(list, action.message, action.viewerId) : list;
  }
}

/**
 * A grid's open jobs: the first page on mount, more on demand, kept in sync with the server's
 * live pushes (new jobs on top, changes applied, removals dropped). `feed` null waits (e.g. while
 * the session is still being restored).
 */
export function useJobs(feed: JobFeed | null): JobsView {
  const api = useApi();
  const toast = useToast();
  const { userId: viewerId } = useAuth();
  const [generation, setGeneration] = useState(0);
  const [list, dispatch] = useReducer(jobListReducer, NO_LIST);
  const [loadingMore, setLoadingMore] = useState(false);
  const key = feed === null ? null : `${feed}|${viewerId ?? ''}|${generation}`;
  const phase = list.key !== key ? 'loading' : list.failed ? 'failed' : 'ready';

  useEffect(() => {
    if (feed === null || key === null) return;
    let active = true;
    fetchFilledPage(api, feed, null).then(
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
  }, [api, feed, key, viewerId, toast]);

  useLiveUpdates((message) => {
    // Until the first page is in, that page brings the current state anyway.
    if (phase !== 'ready' || key === null) return;
    dispatch({ type: 'live', key, message, viewerId });
    if (message.type === 'job.posted' && isListed(message.job, viewerId)) toast.info(MSG.jobs.newJobLive);
    if (message.type === 'job.removed' && list.jobs.some((job) => job.id === message.jobId)) toast.info(MSG.jobs.removedLive);
  });

  function loadMore(): void {
    if (feed === null || key === null || phase !== 'ready' || !list.nextCursor || loadingMore) return;
    setLoadingMore(true);
    fetchFilledPage(api, feed, list.nextCursor)
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
