import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';

const DAY_MS = 24 * 3600 * 1000;
const CONGRATULATED_KEY = 'oddjobs.congratulated-jobs';

function congratulatedIds(): string[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(CONGRATULATED_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The worker's congratulations for jobs they were accepted for in the last 24 hours, on the first
 * dashboard visit of the session after each acceptance (spec 2 §9); dismissible. What this visit
 * shows counts as celebrated, so the next visit does not show it again.
 */
export function AcceptanceBanner({ jobs }: { jobs: PartyJob[] }) {
  const [celebratedBefore] = useState(() => new Set(congratulatedIds()));
  const [since] = useState(() => Date.now() - DAY_MS);
  const [dismissed, setDismissed] = useState(false);
  const fresh = jobs.filter(
    (job) => job.status === 'assigned' && job.assignedAt && Date.parse(job.assignedAt) >= since && !celebratedBefore.has(job.id),
  );
  const freshIds = fresh.map((job) => job.id).join(',');

  useEffect(() => {
    if (!freshIds) return;
    const ids = new Set([...congratulatedIds(), ...freshIds.split(',')]);
    sessionStorage.setItem(CONGRATULATED_KEY, JSON.stringify([...ids]));
  }, [freshIds]);

  if (dismissed || fresh.length === 0) return null;
  return (
    <section className="notice notice--success acceptance-banner" role="status" aria-label="Congratulations">
      <ul>
        {fresh.map((job) => (
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
