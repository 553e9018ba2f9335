import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { AutoReleaseStatus } from '../../../../lib/components/AutoReleaseStatus';
import { StatusBadge } from '../../../../lib/components/StatusBadge';
import { JobPrice, MarkCompletedButton } from '../../../jobs';
import { formatCalendarDay } from '../../../../lib/format';

/** 'My Active Jobs': each assigned or completed job with what comes next for the worker. */
export function ActiveJobsSection({ jobs, onChanged }: { jobs: PartyJob[]; onChanged(): void }) {
  if (jobs.length === 0) {
    return (
      <p className="muted">
        No active jobs. Apply to one of the <a href="#available-jobs">available jobs</a> below.
      </p>
    );
  }
  return (
    <ul className="dashboard-jobs">
      {jobs.map((job) => (
        <li key={job.id} className="card dashboard-job">
          <div className="dashboard-job__heading">
            <Link to={`/jobs/${encodeURIComponent(job.id)}`} className="dashboard-job__title">
              {job.title}
            </Link>
            <StatusBadge status={job.status} />
          </div>
          <p className="dashboard-job__meta">
            <span>
              <JobPrice job={job} />
            </span>
            <span>{job.location}</span>
            <span>Due {formatCalendarDay(job.date)}</span>
          </p>
          <NextStep job={job} onChanged={onChanged} />
        </li>
      ))}
    </ul>
  );
}

/** Assigned: mark it completed (first fixing what a declined completion asked for). Completed: the poster's turn. */
function NextStep({ job, onChanged }: { job: PartyJob; onChanged(): void }) {
  if (job.status === 'completed') {
    return (
      <>
        <p className="notice notice--info">{MSG.dashboard.waitingForRelease}</p>
        <AutoReleaseStatus job={job} viewer="worker" />
      </>
    );
  }
  return (
    <>
      {job.declineReason ? <p className="notice notice--warning">{MSG.dashboard.declinedCompletion(job.declineReason)}</p> : null}
      <MarkCompletedButton job={job} onChanged={onChanged} describe />
    </>
  );
}
