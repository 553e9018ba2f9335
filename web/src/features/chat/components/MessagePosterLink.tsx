import { Link } from 'react-router-dom';
import type { JobSummary } from '../../../../../shared/api';
import { MESSAGES_PATH } from '../../../lib/navigation';

/**
 * A worker's way into the conversation with the poster: 'Ask a question' while the job is
 * open (spec 2 §6), 'Message poster' for the assigned worker until it is paid. The messages
 * page starts or reopens the conversation and opens it.
 */
export function MessagePosterLink({ job, isAssignedWorker }: { job: JobSummary; isAssignedWorker: boolean }) {
  const label = job.status === 'open' ? 'Ask a question' : isAssignedWorker && job.status !== 'paid' ? 'Message poster' : null;
  if (!label) return null;
  return (
    <p>
      <Link to={`${MESSAGES_PATH}?job=${encodeURIComponent(job.id)}`} className="button button--secondary">
        {label}
      </Link>
    </p>
  );
}
