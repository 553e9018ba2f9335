import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/useAuth';
import { locationFreshness } from '../hooks/useLocationSettings';
import { useNow } from '../../../lib/hooks/useNow';

const TEXT = { missing: 'Location not set', stale: 'Location out of date', set: 'Location set' } as const;

/** The worker dashboard header's location badge (spec 2 §2): a link to the settings either way. */
export function LocationBadge() {
  const { profile } = useAuth();
  const now = useNow(60 * 60_000);
  if (!profile) return null;
  const freshness = locationFreshness(profile, now);
  const state = freshness === 'missing' ? 'missing' : freshness === 'stale' ? 'stale' : 'set';
  return (
    <Link to="/notification-settings" className={`location-badge location-badge--${state}`} data-testid="location-badge">
      <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
        <path d="M12 21s-6-5.3-6-11a6 6 0 1 1 12 0c0 5.7-6 11-6 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" fill="currentColor" />
      </svg>
      {TEXT[state]}
    </Link>
  );
}
