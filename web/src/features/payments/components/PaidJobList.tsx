import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../shared/api';
import { formatCents, paidAt, workerReceived } from '../../../../../shared/money';
import { formatCalendarDay } from '../../../lib/format';

/** The worker's paid jobs: title, the day it was paid, what the worker received and the poster's tip. */
export function PaidJobList({ jobs }: { jobs: PartyJob[] }) {
  if (!jobs.length) return <p className="muted">No paid jobs yet. Jobs appear here once their poster has released the payment.</p>;
  return (
    <table className="paid-jobs">
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Paid on</th>
          <th scope="col">Amount</th>
          <th scope="col">Tip</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id}>
            <td>
              <Link to={`/jobs/${job.id}`}>{job.title}</Link>
            </td>
            <td>{formatCalendarDay(paidAt(job).slice(0, 10))}</td>
            <td>{formatCents(workerReceived(job))}</td>
            <td>{job.tip ? formatCents(job.tip) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Released payments the admin took back (a refund after release, Wave 5): what the worker's
 * balance returned, and what it could not because it was cashed out — what they owe.
 */
export function ReversedJobList({ jobs }: { jobs: PartyJob[] }) {
  return (
    <table className="paid-jobs">
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Taken back from your balance</th>
          <th scope="col">Owed</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id}>
            <td>
              <Link to={`/jobs/${job.id}`}>{job.title}</Link>
            </td>
            <td>{formatCents(job.reversal?.recovered ?? 0)}</td>
            <td>{job.reversal?.unrecovered ? formatCents(job.reversal.unrecovered) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
