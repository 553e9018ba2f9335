import { MSG } from '../../../../shared/messages';
import type { JobFeed } from '../../api/endpoints';
import { useAuth } from '../../hooks/useAuth';
import { useJobs } from '../../hooks/useJobs';
import { useNow } from '../../hooks/useNow';
import { EmptyState } from '../EmptyState';
import { JobCard } from './JobCard';
import { JobGridSkeleton } from './JobGridSkeleton';

const MINUTE_MS = 60_000;

/** The live grid of open jobs with its loading, empty, error and "load more" states. */
export function JobBoard({ feed }: { feed: JobFeed | null }) {
  const { phase, jobs, hasMore, loadingMore, loadMore, retry } = useJobs(feed);
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
    return (
      <EmptyState title={MSG.jobs.noJobsTitle}>
        <p>{MSG.jobs.noJobsHint}</p>
      </EmptyState>
    );
  }
  return (
    <div className="job-board">
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
    </div>
  );
}
