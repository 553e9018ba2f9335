import { Link } from 'react-router-dom';
import type { PartyJob } from '../../../../shared/api';
import { canPerform } from '../../../../shared/job-process';
import { MSG } from '../../../../shared/messages';
import { formatCountdown } from '../format';
import { useNow } from '../hooks/useNow';

const releaseTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

type Viewer = 'poster' | 'worker';

/**
 * Where a completed job's automatic release stands (DECISIONS.md "Wave 3", "Wave 4"), as both
 * parties see it on the job page and their dashboards: counting down, paused by the poster
 * (with the reason), or blocked by the worker's payment account (the worker is shown the way to
 * fix it). Nothing once the money can no longer be released (refunded, split, released).
 */
export function AutoReleaseStatus({ job, viewer }: { job: PartyJob; viewer: Viewer }) {
  if (job.status !== 'completed' || !canPerform('release', job)) return null;
  if (job.autoReleaseBlockedAt) {
    return viewer === 'worker' ? (
      <p className="notice notice--warning auto-release">
        {MSG.payments.autoReleaseBlockedWorker} <Link to="/profile#payment-settings">Open Payment Settings</Link>
      </p>
    ) : (
      <p className="notice notice--warning auto-release">{MSG.payments.autoReleaseBlocked}</p>
    );
  }
  if (job.autoReleasePausedAt) return <p className="notice notice--warning auto-release">{MSG.payments.autoReleasePaused(job.autoReleasePauseReason ?? '')}</p>;
  return job.autoReleaseAt ? <AutoReleaseCountdown releaseAt={job.autoReleaseAt} viewer={viewer} /> : null;
}

/** The time left, ticking, and the moment. Screen readers read it once, not every tick (no live region). */
function AutoReleaseCountdown({ releaseAt, viewer }: { releaseAt: string; viewer: Viewer }) {
  const remaining = Date.parse(releaseAt) - useNow(1000);
  return (
    <p className="notice notice--info auto-release">
      {remaining > 0 ? MSG.payments.autoReleaseCountdown(viewer, formatCountdown(remaining)) : MSG.payments.autoReleaseDue}{' '}
      <time dateTime={releaseAt}>({releaseTime.format(new Date(releaseAt))})</time>
    </p>
  );
}
