import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { formatCents } from '../../../../../../shared/money';
import { AutoReleaseStatus } from '../../../../lib/components/AutoReleaseStatus';

/**
 * Completed jobs whose money is still held wait for the poster: the worker is paid only once they release. Shown first
 * and prominently, each with the way to the job page's Release Payment and Decline Completion.
 */
export function WaitingForRelease({ jobs }: { jobs: PartyJob[] }) {
  if (jobs.length === 0) return null;
  return (
    <section className="notice notice--warning waiting-for-release" aria-labelledby="waiting-for-release-heading">
      <h2 id="waiting-for-release-heading">{MSG.dashboard.waitingForYourRelease(jobs.length)}</h2>
      <ul>
        {jobs.map((job) => (
          <li key={job.id}>
            <span>
              <strong>{job.title}</strong> was marked completed. Check the work, then release {formatCents(job.payment)} to the worker.
            </span>{' '}
            <Link to={`/jobs/${encodeURIComponent(job.id)}`} className="button button--small">
              Review &amp; Release<span className="visually-hidden"> {job.title}</span>
            </Link>
            <AutoReleaseStatus job={job} viewer="poster" />
          </li>
        ))}
      </ul>
    </section>
  );
}
