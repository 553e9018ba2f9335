import { Link } from 'react-router-dom';
import type { OwnProfile } from '../../../../shared/api';
import { MSG } from '../../../../shared/messages';
import { useOwnJobs } from '../../hooks/useOwnJobs';
import { EmptyState } from '../EmptyState';
import { JobHistory } from '../jobs/JobHistory';
import { LoadingState } from '../LoadingState';

/** How many jobs the profile lists before '... and N more' (spec 2 §2). */
const SHOWN_JOBS = 5;

/** Posted Jobs for posters, Job History for workers; admins have neither. */
export function ProfileJobsCard({ profile }: { profile: OwnProfile }) {
  if (profile.role === 'poster') return <PostedJobsCard />;
  if (profile.role === 'worker') return <JobHistoryCard completedJobs={profile.completedJobs} />;
  return null;
}

function PostedJobsCard() {
  const jobs = useOwnJobs();
  return (
    <section className="card" aria-labelledby="posted-jobs-heading">
      <h2 id="posted-jobs-heading">Posted Jobs</h2>
      {jobs.phase === 'loading' ? <LoadingState label="Loading your jobs..." /> : null}
      {jobs.phase === 'failed' ? (
        <EmptyState title={MSG.jobs.loadFailed}>
          <button type="button" className="button button--secondary" onClick={jobs.reload}>
            Try again
          </button>
        </EmptyState>
      ) : null}
      {jobs.phase === 'ready' ? (
        jobs.items.length > 0 ? (
          <>
            <JobHistory jobs={jobs.items.slice(0, SHOWN_JOBS)} />
            {jobs.items.length > SHOWN_JOBS ? <p className="muted">{MSG.profileCard.andMore(jobs.items.length - SHOWN_JOBS)}</p> : null}
          </>
        ) : (
          <EmptyState title="You have not posted any jobs yet.">
            <Link to="/post-job" className="button">
              Post a Job
            </Link>
          </EmptyState>
        )
      ) : null}
    </section>
  );
}

/**
 * The worker's completed jobs. No API lists a worker's jobs yet (the applications issue adds
 * it): until then the card says how many there are, or where they will appear.
 */
function JobHistoryCard({ completedJobs }: { completedJobs: number }) {
  return (
    <section className="card" aria-labelledby="job-history-heading">
      <h2 id="job-history-heading">Job History</h2>
      {completedJobs > 0 ? (
        <p>You have completed {completedJobs === 1 ? '1 job' : `${completedJobs} jobs`} on OddJobs.</p>
      ) : (
        <EmptyState title="No completed jobs yet.">
          <p>Jobs you complete will be listed here.</p>
          <Link to="/dashboard" className="button button--secondary">
            Find Jobs
          </Link>
        </EmptyState>
      )}
    </section>
  );
}
