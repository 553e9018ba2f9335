import { Link } from 'react-router-dom';
import type { JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { useNow } from '../../../lib/hooks/useNow';
import { JobCard } from './JobCard';
import { PosterJobActions } from './PosterJobActions';

const MINUTE_MS = 60_000;

interface OwnJobListProps {
  jobs: JobSummary[];
  onEdit(job: JobSummary): void;
  onChanged(job: JobSummary): void;
  onDeleted(job: JobSummary): void;
  onDeleteFailed(): void;
}

/** The poster's jobs of one status: each as the public sees it, with the actions its status permits. */
export function OwnJobList({ jobs, onEdit, onChanged, onDeleted, onDeleteFailed }: OwnJobListProps) {
  const now = useNow(MINUTE_MS);
  return (
    <ul className="job-grid">
      {jobs.map((job) => (
        <li key={job.id} className="own-job">
          <JobCard job={job} now={now} />
          {job.status === 'open' && job.pendingApplications > 0 ? (
            <Link to={`/jobs/${encodeURIComponent(job.id)}`} className="own-job__pending">
              {MSG.dashboard.pendingApplicants(job.pendingApplications)}
              <span className="visually-hidden"> for {job.title}</span>
            </Link>
          ) : null}
          <PosterJobActions
            job={job}
            onEdit={() => onEdit(job)}
            onChanged={onChanged}
            onDeleted={() => onDeleted(job)}
            onDeleteFailed={onDeleteFailed}
          />
        </li>
      ))}
    </ul>
  );
}
