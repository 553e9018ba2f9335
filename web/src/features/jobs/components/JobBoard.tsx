import { MSG } from '../../../../../shared/messages';
import type { JobFeed, JobFilter } from '../api/fetch-job-page';
import { useAuth } from '../../../lib/auth/useAuth';
import { useJobFilterParams } from '../hooks/useJobFilterParams';
import { useJobs, type JobsView } from '../hooks/useJobs';
import { useNow } from '../../../lib/hooks/useNow';
import { EmptyState } from '../../../lib/components/EmptyState';
import { CategoryFilter } from './CategoryFilter';
import { JobCard } from './JobCard';
import { JobGridSkeleton } from './JobGridSkeleton';
import { JobSearchForm } from './JobSearchForm';
import { PaymentStatusCard } from '../../payments';

const MINUTE_MS = 60_000;

/**
 * Open jobs to browse: search box, category chips, the signed-in user's payment status and the live grid. The search and the
 * category live in the address (`?q=`, `?category=`), so links can open a filtered board.
 */
export function JobBoard({ feed }: { feed: JobFeed | null }) {
  return <JobBoardView board={useJobBoard(feed)} />;
}

export interface JobBoardState {
  filter: JobFilter;
  setFilter(filter: JobFilter): void;
  view: JobsView;
}

/** The board's state, for a screen that also shows what it holds (the worker dashboard's Available Jobs tile). */
export function useJobBoard(feed: JobFeed | null): JobBoardState {
  const [filter, setFilter] = useJobFilterParams();
  return { filter, setFilter, view: useJobs(feed, filter) };
}

export function JobBoardView({ board: { filter, setFilter, view } }: { board: JobBoardState }) {
  const { profile } = useAuth();
  const filtered = filter.q !== '' || filter.category !== null;
  const found = view.phase === 'ready' && filtered && view.jobs.length > 0 ? MSG.jobs.foundCount(view.jobs.length) : '';

  return (
    <div className="job-board">
      <div className="job-board__filters">
        <JobSearchForm query={filter.q} onSearch={(q) => setFilter({ ...filter, q })} />
        <CategoryFilter selected={filter.category} onSelect={(category) => setFilter({ ...filter, category })} />
      </div>
      {profile && profile.role !== 'admin' ? <PaymentStatusCard account={profile.paymentAccount} /> : null}
      {/* Always mounted, so screen readers hear each new count. */}
      <p role="status" className="job-board__count">
        {found}
      </p>
      <JobResults view={view} filtered={filtered} />
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
