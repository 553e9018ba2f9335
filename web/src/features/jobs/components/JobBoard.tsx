import { MSG } from '../../../../../shared/messages';
import { lazy, Suspense, useCallback, useState } from 'react';
import type { BrowserPosition, JobFeed, JobFilter } from '../api/fetch-job-page';
import { useAuth } from '../../../lib/auth/useAuth';
import { useJobFilterParams } from '../hooks/useJobFilterParams';
import { useJobs, type JobsView } from '../hooks/useJobs';
import { useNow } from '../../../lib/hooks/useNow';
import { EmptyState } from '../../../lib/components/EmptyState';
import { CategoryFilter } from './CategoryFilter';
import { JobCard } from './JobCard';
import { JobGridSkeleton } from './JobGridSkeleton';
import { JobSearchForm } from './JobSearchForm';
import { NearMeFilter } from './NearMeFilter';
import { useSavedSearches } from '../hooks/useSavedSearches';
import { currentPosition, positionErrorText } from '../../location';
import { useToast } from '../../../lib/toast/useToast';
import { PaymentStatusCard } from '../../payments';
import { useConfig } from '../../../lib/useConfig';

// MapLibre is a large download: only for those who open the map.
const JobMap = lazy(() => import('./JobMap'));

const MINUTE_MS = 60_000;

/**
 * Open jobs to browse: search box, category chips, "Near me", the signed-in user's payment status and the live grid. The
 * search, the category and the place live in the address (`?q=`, `?category=`, `?near=&radius=`), so links can open a filtered board.
 */
export function JobBoard({ feed }: { feed: JobFeed | null }) {
  return <JobBoardView board={useJobBoard(feed)} />;
}

export interface JobBoardState {
  filter: JobFilter;
  setFilter(filter: JobFilter): void;
  view: JobsView;
  /** "Near me": on (from the saved location when there is one, else the browser's) or off. */
  toggleNearMe(): void;
  locating: boolean;
  /** The browser's position, while the board searches near it. */
  here: BrowserPosition | null;
}

/** The board's state, for a screen that also shows what it holds (the worker dashboard's Available Jobs tile). */
export function useJobBoard(feed: JobFeed | null): JobBoardState {
  const [params, setFilter] = useJobFilterParams();
  const { profile } = useAuth();
  const toast = useToast();
  const [here, setHere] = useState<BrowserPosition | null>(null);
  const [locating, setLocating] = useState(false);
  // The browser's position is asked on a click only: a link or a reload with near=here shows every job until then.
  const filter: JobFilter = params.near === 'here' && here === null ? { ...params, near: null, radius: null } : params;

  function toggleNearMe(): void {
    if (filter.near) return setFilter({ ...filter, near: null, radius: null });
    if (profile?.latitude != null) return setFilter({ ...filter, near: 'me' });
    setLocating(true);
    currentPosition()
      .then(
        (position) => {
          setHere(position);
          setFilter({ ...filter, near: 'here' });
        },
        (error: unknown) => toast.error(positionErrorText(error, MSG.search.locationRefused)),
      )
      .finally(() => setLocating(false));
  }

  return { filter, setFilter, view: useJobs(feed, filter, here), toggleNearMe, locating, here: filter.near === 'here' ? here : null };
}

export function JobBoardView({ board: { filter, setFilter, view, toggleNearMe, locating, here } }: { board: JobBoardState }) {
  const { profile } = useAuth();
  const filtered = filter.q !== '' || filter.category !== null || filter.radius !== null;
  const found = view.phase === 'ready' && filtered && view.jobs.length > 0 ? MSG.jobs.foundCount(view.jobs.length) : '';

  return (
    <div className="job-board">
      <div className="job-board__filters">
        <JobSearchForm query={filter.q} onSearch={(q) => setFilter({ ...filter, q })} />
        <CategoryFilter selected={filter.category} onSelect={(category) => setFilter({ ...filter, category })} />
        <NearMeFilter active={filter.near !== null} radius={filter.radius} onToggle={toggleNearMe} onRadius={(radius) => setFilter({ ...filter, radius })} locating={locating} />
        {profile?.role === 'worker' && filter.near !== null ? <SaveSearchButton filter={filter} here={here} /> : null}
      </div>
      {profile && profile.role !== 'admin' ? <PaymentStatusCard account={profile.paymentAccount} /> : null}
      {/* Always mounted, so screen readers hear each new count. */}
      <p role="status" className="job-board__count">
        {found}
      </p>
      <ResultsMap view={view} filter={filter} here={here} />
      <JobResults view={view} filtered={filtered} />
    </div>
  );
}

/** "Show map" (issue 46): the jobs found as pins, each opening its card under the map; the list stays below. */
function ResultsMap({ view, filter, here }: { view: JobsView; filter: JobFilter; here: BrowserPosition | null }) {
  const { profile } = useAuth();
  const config = useConfig();
  const [open, setOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const onSelect = useCallback((jobId: string) => setSelectedId(jobId), []);
  const now = useNow(MINUTE_MS);
  const saved = profile?.latitude != null && profile.longitude != null ? { latitude: profile.latitude, longitude: profile.longitude } : null;
  const center = filter.near === 'me' ? saved : filter.near === 'here' ? here : null;
  const selected = view.jobs.find((job) => job.id === selectedId);
  return (
    <div className="results-map">
      <button type="button" className="button button--secondary" aria-pressed={open} onClick={() => setOpen(!open)}>
        {open ? MSG.search.hideMap : MSG.search.showMap}
      </button>
      {open && view.phase === 'ready' ? (
        <Suspense fallback={<p role="status">{MSG.search.mapLoading}</p>}>
          <JobMap jobs={view.jobs} center={center} radiusMiles={filter.radius} styleUrl={config.map?.styleUrl ?? null} onSelect={onSelect} />
          {selected ? (
            <div className="results-map__selected" aria-live="polite">
              <JobCard job={selected} now={now} />
            </div>
          ) : null}
        </Suspense>
      ) : null}
    </div>
  );
}

/** "Save this search" (issue 46): a worker keeps a search near a place, with its radius, to be told of new jobs that match it. */
function SaveSearchButton({ filter, here }: { filter: JobFilter; here: BrowserPosition | null }) {
  const { save } = useSavedSearches(false);
  const [saving, setSaving] = useState(false);
  if (filter.radius === null) return <p className="job-board__hint">{MSG.search.saveSearchHint}</p>;
  const radiusMiles = filter.radius;
  async function saveThis() {
    setSaving(true);
    await save({ text: filter.q, category: filter.category, radiusMiles }, here);
    setSaving(false);
  }
  return (
    <div>
      <button type="button" className="button button--secondary" onClick={() => void saveThis()} disabled={saving}>
        {MSG.search.saveSearch}
      </button>
    </div>
  );
}

function JobResults({ view, filtered }: { view: JobsView; filtered: boolean }) {
  const { phase, jobs, hasMore, loadingMore, loadMore, retry } = view;
  const { status } = useAuth();
  const now = useNow(MINUTE_MS);

  if (phase === 'loading') return <JobGridSkeleton />;
  if (phase === 'failed') {
    return (
      <EmptyState title={status === 'signedIn' ? MSG.jobs.loadFromDatabaseFailed : MSG.jobs.loadFailed}>
        <button type="button" className="button button--secondary" onClick={retry}>
          Try again
        </button>
      </EmptyState>
    );
  }
  if (jobs.length === 0) {
    return filtered ? (
      <EmptyState title={MSG.jobs.noSearchResults}>
        <p>{MSG.jobs.tryAdjusting}</p>
      </EmptyState>
    ) : (
      <EmptyState title={MSG.jobs.noJobsTitle}>
        <p>{MSG.jobs.noJobsHint}</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="job-grid">
        {jobs.map((job) => (
          <li key={job.id}>
            <JobCard job={job} now={now} />
          </li>
        ))}
      </ul>
      {hasMore ? (
        <div className="job-board__more">
          <button type="button" className="button button--secondary" onClick={loadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading...' : 'Load more'}
          </button>
        </div>
      ) : null}
    </>
  );
}
