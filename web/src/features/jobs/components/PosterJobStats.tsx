import type { JobSummary } from '../../../../../shared/api';
import type { JobStatus } from '../../../../../shared/job-process';
import { formatCents } from '../../../../../shared/money';

const COUNTED: ReadonlyArray<{ status: JobStatus; label: string }> = [
  { status: 'open', label: 'Open' },
  { status: 'assigned', label: 'Assigned' },
  { status: 'completed', label: 'Completed' },
  { status: 'paid', label: 'Paid' },
  { status: 'cancelled', label: 'Cancelled' },
];

// A draft is not paid for yet and a cancelled job is refunded (DECISIONS.md "Money and fees").
const UNPAID: readonly JobStatus[] = ['awaiting_payment', 'cancelled'];

/** The poster's numbers: jobs per status and what the paid-for jobs cost in total. */
export function PosterJobStats({ jobs }: { jobs: JobSummary[] }) {
  const totalPosted = jobs.filter((job) => !UNPAID.includes(job.status)).reduce((sum, job) => sum + job.postedAmount, 0);
  return (
    <dl className="stat-grid" aria-label="Your jobs at a glance">
      <div className="stat-card">
        <dt>Total Jobs</dt>
        <dd>{jobs.length}</dd>
      </div>
      {COUNTED.map(({ status, label }) => (
        <div key={status} className="stat-card">
          <dt>{label}</dt>
          <dd>{jobs.filter((job) => job.status === status).length}</dd>
        </div>
      ))}
      <div className="stat-card stat-card--wide">
        <dt>Total Posted</dt>
        <dd>{formatCents(totalPosted)}</dd>
      </div>
    </dl>
  );
}
