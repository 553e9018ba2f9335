import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { SavedJob } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { jobTopic } from '../../../../../shared/live';
import { useNow } from '../../../lib/hooks/useNow';
import { useLiveTopics } from '../../../lib/live/useLiveUpdates';
import type { SavedJobs } from '../hooks/useSavedJobs';
import { formatRelativeTime } from '../../../lib/format';
import { LoadingState } from '../../../lib/components/LoadingState';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { JobPrice } from './JobPrice';

const MINUTE_MS = 60_000;

/** The worker dashboard's Saved Jobs card (anchor #saved-jobs), newest first. */
export function SavedJobsCard({ savedJobs }: { savedJobs: SavedJobs }) {
  const now = useNow(MINUTE_MS);
  const { query } = savedJobs;
  // The saved jobs' changes come live while the card shows them (useLiveQuerySync applies them).
  useLiveTopics((query.data ?? []).map((saved) => jobTopic(saved.job.id)));
  return (
    <section id="saved-jobs" className="card" aria-labelledby="saved-jobs-heading">
      <h2 id="saved-jobs-heading">Saved Jobs</h2>
      {query.isPending ? <LoadingState label="Loading saved jobs..." /> : null}
      {query.isError ? (
        <>
          <p role="alert">{MSG.savedJobs.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
            Try again
          </button>
        </>
      ) : null}
      {query.isSuccess && query.data.length === 0 ? (
        <p className="muted">No saved jobs yet. Save a job from its page to find it here later.</p>
      ) : null}
      {query.isSuccess && query.data.length > 0 ? (
        <ul className="saved-jobs__list">
          {query.data.map((entry) => (
            <SavedJobItem key={entry.job.id} entry={entry} now={now} onRemove={() => savedJobs.unsave(entry.job.id)} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function SavedJobItem({ entry: { job, savedAt }, now, onRemove }: { entry: SavedJob; now: number; onRemove(): Promise<void> }) {
  const [removing, setRemoving] = useState(false);

  async function remove() {
    setRemoving(true);
    await onRemove();
    // On success the item is gone; on failure it stays and can be tried again.
    setRemoving(false);
  }

  return (
    <li className="saved-job">
      <div className="saved-job__heading">
        <Link to={`/jobs/${job.id}`} className="saved-job__title">
          {job.title}
        </Link>
        <StatusBadge status={job.status} />
      </div>
      <p className="saved-job__meta">
        <span className="saved-job__price">
          <JobPrice job={job} />
        </span>
        <span>{job.location}</span>
        <span>
          Saved <time dateTime={savedAt}>{formatRelativeTime(savedAt, now)}</time>
        </span>
      </p>
      <div className="button-row">
        {/* Applying comes with the applications issue; until then the job's page is where to go. */}
        <Link to={`/jobs/${job.id}`} className="button button--small">
          View &amp; Apply<span className="visually-hidden"> to {job.title}</span>
        </Link>
        <button type="button" className="button button--small button--secondary" onClick={() => void remove()} disabled={removing}>
          Remove<span className="visually-hidden"> {job.title} from saved jobs</span>
        </button>
      </div>
    </li>
  );
}
