import { Link } from 'react-router-dom';
import { dashboardPath } from '../../lib/auth/destinations';
import { PageHeading } from '../../lib/components/PageHeading';
import { useAuth } from '../../lib/auth/useAuth';

interface UpcomingFeature {
  title: string;
  /** What the page will show, in the specs' terms. */
  willShow: readonly string[];
}

/**
 * The pages the specs route to whose features later issues build. Each is guarded like the
 * real page and says plainly what it will hold, so a link to it never ends on a dead page.
 */
const UPCOMING_FEATURES = {
  dispute: {
    title: 'Dispute Center',
    willShow: [
      'A form to report a problem with this job to the admin team.',
      'How disputes work: the admin review, notifications, and the typical response time of 24-48 hours.',
    ],
  },
} as const satisfies Record<string, UpcomingFeature>;

export type UpcomingFeatureName = keyof typeof UPCOMING_FEATURES;

export default function UpcomingFeatureScreen({ feature }: { feature: UpcomingFeatureName }) {
  const { title, willShow } = UPCOMING_FEATURES[feature];
  const { profile } = useAuth();
  return (
    <div className="page page--narrow">
      <PageHeading>{title}</PageHeading>
      <div className="card">
        <p className="upcoming__lead">This page is on its way. It will show:</p>
        <ul className="bullets">
          {willShow.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <Link to={dashboardPath(profile)} className="button button--secondary">
          Back to Dashboard
        </Link>
      </div>
    </div>
  );
}
