import '@aws-amplify/ui-react/styles.css';
import '../admin.css';
import { Tabs } from '@aws-amplify/ui-react';
import { Suspense, lazy } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useSignOut } from '../../../lib/auth/useSignOut';

// Amplify UI's stylesheet is imported here only: this screen is its own lazily loaded chunk,
// so the landing route never downloads it.

/** The tabs, in the spec's order plus the audit log; each is its own chunk, loaded when opened. */
export const ADMIN_TABS = [
  { value: 'transactions', label: 'Transactions', Panel: lazy(() => import('../components/TransactionsTab')) },
  { value: 'jobs', label: 'Jobs', Panel: lazy(() => import('../components/JobsTab')) },
  { value: 'disputes', label: 'Disputes', Panel: lazy(() => import('../components/DisputesTab')) },
  { value: 'flagged', label: 'Flagged Jobs', Panel: lazy(() => import('../components/FlaggedJobsTab')) },
  { value: 'locations', label: 'Locations', Panel: lazy(() => import('../components/LocationsTab')) },
  { value: 'analytics', label: 'Market Analytics', Panel: lazy(() => import('../components/MarketAnalyticsTab')) },
  { value: 'users', label: 'Users', Panel: lazy(() => import('../components/UsersTab')) },
  { value: 'categories', label: 'Categories', Panel: lazy(() => import('../components/CategoriesTab')) },
  { value: 'audit', label: 'Audit Log', Panel: lazy(() => import('../components/AuditLogTab')) },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]['value'];

/** The admin console: the selected tab lives in the URL (?tab=), so it survives a reload and can be linked. */
export default function AdminDashboardScreen() {
  const signOut = useSignOut();
  const [params, setParams] = useSearchParams();
  const selected = ADMIN_TABS.find((tab) => tab.value === params.get('tab')) ?? ADMIN_TABS[0];

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
      <Tabs.Container value={selected.value} onValueChange={(value) => setParams({ tab: value })} isLazy>
        <Tabs.List className="admin-tabs" aria-label="Admin sections">
          {ADMIN_TABS.map((tab) => (
            <Tabs.Item key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Item>
          ))}
        </Tabs.List>
        {ADMIN_TABS.map(({ value, label, Panel }) => (
          <Tabs.Panel key={value} value={value}>
            <Suspense fallback={<LoadingState label={`Loading ${label}...`} />}>
              <Panel />
            </Suspense>
          </Tabs.Panel>
        ))}
      </Tabs.Container>
    </div>
  );
}
