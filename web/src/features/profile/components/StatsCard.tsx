import type { OwnProfile } from '../../../../../shared/api';
import { useDashboard } from '../../dashboards';
import { formatRating, formatSuccessRate } from '../../../lib/format';

export function StatsCard({ profile }: { profile: OwnProfile }) {
  return (
    <section className="card" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Stats</h2>
      <dl className="facts facts--stacked">
        <div>
          <dt>Rating</dt>
          <dd>{formatRating(profile.rating)}</dd>
        </div>
        <div>
          <dt>Reviews</dt>
          <dd>{profile.reviewCount}</dd>
        </div>
        <div>
          <dt>Completed jobs</dt>
          <dd>{profile.completedJobs}</dd>
        </div>
        {profile.role === 'worker' ? <SuccessRate /> : null}
      </dl>
    </section>
  );
}

/** Computed with the dashboard (functions/dashboards/dashboards.ts), which reads all the worker's jobs. */
function SuccessRate() {
  const dashboard = useDashboard();
  return (
    <div>
      <dt>Success rate</dt>
      <dd>{dashboard.data ? formatSuccessRate(dashboard.data.successRate) : '...'}</dd>
    </div>
  );
}
