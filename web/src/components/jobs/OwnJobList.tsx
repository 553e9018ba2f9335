import type { JobSummary } from '../../../../shared/api';
import { useNow } from '../../hooks/useNow';
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
