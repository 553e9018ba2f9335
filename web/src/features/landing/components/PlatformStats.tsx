import { MSG } from '../../../../../shared/messages';

const STATS = [
  { value: MSG.landing.activeUsers, label: 'active users' },
  { value: MSG.landing.earned, label: 'earned by workers' },
  { value: MSG.landing.jobsCompleted, label: 'jobs completed' },
] as const;

/** The platform's numbers as marketing states them (spec 1 §1). */
export function PlatformStats() {
  return (
    <section className="stats-band" aria-label="OddJobs in numbers">
      <dl className="stats-band__inner">
        {STATS.map((stat) => (
          <div key={stat.label} className="stats-band__item">
            <dt className="stats-band__label">{stat.label}</dt>
            <dd className="stats-band__value">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
