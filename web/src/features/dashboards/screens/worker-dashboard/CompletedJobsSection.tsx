import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../../shared/api';
import { formatCents } from '../../../../../../shared/money';
import { formatCalendarDay } from '../../../../lib/format';

/** 'Completed Jobs': the paid ones, newest first, with what each earned. */
export function CompletedJobsSection({ jobs }: { jobs: PartyJob[] }) {
  if (jobs.length === 0) return <p className="muted">No completed jobs yet. Paid jobs appear here with what they earned.</p>;
  return (
    <ol className="job-history">
      {jobs.map((job) => (
        <li key={job.id} className="job-history__item">
          <Link to={`/jobs/${encodeURIComponent(job.id)}`} className="job-history__title">
            {job.title}
          </Link>
          <span className="job-history__meta">Due {formatCalendarDay(job.date)}</span>
          <span className="job-history__amount">{formatCents(job.payment)}</span>
        </li>
      ))}
    </ol>
  );
}
