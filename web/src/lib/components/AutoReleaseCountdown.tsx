import { MSG } from '../../../../shared/messages';
import { formatCountdown } from '../format';
import { useNow } from '../hooks/useNow';

const releaseTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * When a completed job's payment is released automatically (DECISIONS.md "Wave 3"), as both
 * parties see it on the job page and their dashboards: the time left, ticking, and the moment.
 * Screen readers read it once, not every tick (no live region).
 */
export function AutoReleaseCountdown({ releaseAt, viewer }: { releaseAt: string; viewer: 'poster' | 'worker' }) {
  const remaining = Date.parse(releaseAt) - useNow(1000);
  return (
    <p className="notice notice--info auto-release">
      {remaining > 0 ? MSG.payments.autoReleaseCountdown(viewer, formatCountdown(remaining)) : MSG.payments.autoReleaseDue}{' '}
      <time dateTime={releaseAt}>({releaseTime.format(new Date(releaseAt))})</time>
    </p>
  );
}
