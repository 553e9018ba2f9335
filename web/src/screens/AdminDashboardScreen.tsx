import { Suspense, lazy } from 'react';
import { Link } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';
import { PageHeading } from '../components/PageHeading';
import { useSignOut } from '../hooks/useSignOut';

// The tab shell (issue 13) mounts this tab among the others; until then it is the page's content.
const DisputesTab = lazy(() => import('./admin-dashboard/DisputesTab'));

export default function AdminDashboardScreen() {
  const signOut = useSignOut();
  return (
    <div className="page">
      <div className="page__header">
        <div>
          <PageHeading>Admin Dashboard</PageHeading>
          <p className="page__lead">Oversee jobs, payments and disputes across the platform.</p>
        </div>
        <div className="button-row">
          <Link to="/dashboard" className="button button--secondary">
            View Open Jobs
          </Link>
          <button type="button" className="button" onClick={() => void signOut()}>
            Sign Out
          </button>
        </div>
      </div>
      <Suspense fallback={<LoadingState label="Loading..." />}>
        <DisputesTab />
      </Suspense>
    </div>
  );
}
