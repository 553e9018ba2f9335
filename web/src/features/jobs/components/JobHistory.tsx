import { Link } from 'react-router-dom';
import type { JobSummary } from '../../../../../shared/api';
import { formatCalendarDay } from '../../../lib/format';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { JobPrice } from './JobPrice';

/** Every job of the poster in one compact list, newest first. */
export function JobHistory({ jobs }: { jobs: JobSummary[] }) {
  return (
    <ol className="job-history">
      {jobs.map((job) => (
        <li key={job.id} className="job-history__item">
          <Link to={`/jobs/${job.id}`} className="job-history__title">
            {job.title}
          </Link>
          <StatusBadge status={job.status} />
          <span className="job-history__meta">
            Posted <time dateTime={job.createdAt}>{formatCalendarDay(job.createdAt.slice(0, 10))}</time>
          </span>
          <span className="job-history__amount">
            <JobPrice job={job} />
          </span>
        </li>
      ))}
    </ol>
  );
}
