import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MSG } from '../../../../shared/messages';
import { useFreshAcceptances } from '../../hooks/useApplications';

/**
 * The worker's congratulations for applications accepted in the last 24 hours, on the first
 * dashboard visit of the session after each acceptance (spec 2 §9); dismissible.
 */
export function AcceptanceBanner() {
  const items = useFreshAcceptances();
  const [dismissed, setDismissed] = useState(false);

  if (dismissed || items.length === 0) return null;
  return (
    <section className="notice notice--success acceptance-banner" role="status" aria-label="Congratulations">
      <ul>
        {items.map(({ job }) => (
          <li key={job.id}>
            {MSG.applications.acceptedMessage(job.title)} <Link to={`/jobs/${encodeURIComponent(job.id)}`}>View job</Link>
          </li>
        ))}
      </ul>
      <button type="button" className="button button--small button--ghost" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </section>
  );
}
