import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LOCATION_FRESHNESS } from '../../../../../shared/notifications';
import { useAuth } from '../../../lib/auth/useAuth';
import { locationFreshness } from '../hooks/useLocationSettings';
import { useNow } from '../../../lib/hooks/useNow';

const DISMISSED_KEY = 'oddjobs.locationPromptDismissedAt';
const DAY_MS = 24 * 60 * 60 * 1000;

function dismissedRecently(now: number): boolean {
  try {
    const at = Number(window.localStorage.getItem(DISMISSED_KEY));
    return Number.isFinite(at) && at > 0 && now - at < LOCATION_FRESHNESS.dismissalDays * DAY_MS;
  } catch {
    return false;
  }
}

const TEXT = {
  missing: 'Set your location to get notified about new jobs near you.',
  suggest: `Your location was last updated more than ${LOCATION_FRESHNESS.suggestUpdateAfterDays} days ago. Update it to keep your job alerts accurate.`,
  stale: `Your location is more than ${LOCATION_FRESHNESS.staleAfterDays} days old. Update it to keep getting alerts for jobs near you.`,
} as const;

/**
 * The worker dashboard's location prompt (spec 2 §2, §4): while no location is stored, or an
 * update is suggested (after 7 days) or due (after 30). A dismissal lasts 30 days and is kept
 * on this device only (localStorage).
 */
export function LocationPromptBanner() {
  const { profile } = useAuth();
  const now = useNow(60 * 60_000);
  const [dismissed, setDismissed] = useState(() => dismissedRecently(Date.now()));
  if (!profile || profile.role !== 'worker' || dismissed) return null;
  const freshness = locationFreshness(profile, now);
  if (freshness === 'fresh') return null;

  const dismiss = () => {
    try {
      window.localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    } catch {
      // Private mode: the banner still hides for this visit.
    }
    setDismissed(true);
  };

  return (
    <div className="location-prompt" role="region" aria-label="Location">
      <p>{TEXT[freshness]}</p>
      <div className="location-prompt__actions">
        <Link to={freshness === 'missing' ? '/worker-onboarding' : '/notification-settings'} className="button">
          {freshness === 'missing' ? 'Set Location' : 'Update Location'}
        </Link>
        <button type="button" className="button button--ghost" onClick={dismiss}>
          Not now
        </button>
      </div>
    </div>
  );
}
