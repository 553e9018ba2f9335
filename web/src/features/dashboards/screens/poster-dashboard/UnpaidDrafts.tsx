import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../../shared/api';
import { formatCents } from '../../../../../../shared/money';
import type { NavigationState } from '../../../../lib/navigation-state';

/**
 * Drafts whose card step was left (a reload, a closed tab): each with the way back to it on the
 * job's page, which opens straight on the draft's own card step (asked once, here). Unpaid drafts expire after a day.
 */
export function UnpaidDrafts({ jobs }: { jobs: PartyJob[] }) {
  if (jobs.length === 0) return null;
  return (
    <section className="notice notice--info unpaid-drafts" aria-labelledby="unpaid-drafts-heading">
      <h2 id="unpaid-drafts-heading">Not posted yet: payment needed</h2>
      <ul>
        {jobs.map((job) => (
          <li key={job.id}>
            <span>
              <strong>{job.title}</strong> is waiting for its payment of {formatCents(job.postedAmount)}.
            </span>{' '}
            <Link to={`/jobs/${encodeURIComponent(job.id)}`} state={{ resumePayment: true } satisfies NavigationState} className="button button--small">
              Complete payment<span className="visually-hidden"> for {job.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
