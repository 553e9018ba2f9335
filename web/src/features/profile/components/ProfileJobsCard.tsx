import { Link } from 'react-router-dom';
import type { OwnProfile } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { useOwnJobs, JobHistory } from '../../jobs';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { WORKER_JOBS_PATH } from '../../../lib/navigation';

/** How many jobs the profile lists before '... and N more' (spec 2 §2). */
const SHOWN_JOBS = 5;

/** Posted Jobs for posters, Job History for workers (GET /me/jobs answers per role); admins have neither. */
export function ProfileJobsCard({ profile }: { profile: OwnProfile }) {
  if (profile.role === 'poster') {
    return (
      <JobsCard id="posted-jobs-heading" title="Posted Jobs" emptyTitle="You have not posted any jobs yet." action={{ to: '/post-job', label: 'Post a Job' }} />
    );
  }
  if (profile.role === 'worker') {
    return <JobsCard id="job-history-heading" title="Job History" emptyTitle="No jobs yet." action={{ to: WORKER_JOBS_PATH, label: 'Find Jobs' }} />;
  }
  return null;
}

interface JobsCardProps {
  id: string;
  title: string;
  emptyTitle: string;
  action: { to: string; label: string };
}

/** The first 5 of the caller's jobs, newest first, then '... and N more'. */
function JobsCard({ id, title, emptyTitle, action }: JobsCardProps) {
  const jobs = useOwnJobs();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {jobs.isPending ? <LoadingState label="Loading your jobs..." /> : null}
      {jobs.isError ? (
        <EmptyState title={MSG.jobs.loadFailed}>
          <button type="button" className="button button--secondary" onClick={() => void jobs.refetch()}>
            Try again
          </button>
        </EmptyState>
      ) : null}
      {jobs.isSuccess ? (
        jobs.data.length > 0 ? (
          <>
            <JobHistory jobs={jobs.data.slice(0, SHOWN_JOBS)} />
            {jobs.data.length > SHOWN_JOBS ? <p className="muted">{MSG.profileCard.andMore(jobs.data.length - SHOWN_JOBS)}</p> : null}
          </>
        ) : (
          <EmptyState title={emptyTitle}>
            <Link to={action.to} className="button button--secondary">
              {action.label}
            </Link>
          </EmptyState>
        )
      ) : null}
    </section>
  );
}
