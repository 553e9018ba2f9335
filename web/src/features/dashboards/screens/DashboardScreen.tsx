import { Link, Navigate, useLocation } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { ROLE_HOME } from '../../../../../shared/roles';
import { JobBoard } from '../../jobs';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useAuth } from '../../../lib/auth/useAuth';
import { useStripeSetupReturn } from '../../payments';
import type { NavigationState } from '../../../lib/navigation-state';

/**
 * /dashboard sends workers and posters to their own dashboards (the worker's has the open-jobs
 * board), keeping the query and fragment (`?stripe_setup=`, `?q=`, `#saved-jobs`). Signed out it
 * asks to sign in (spec 1 §2); for the admin, and a user without a profile, it stays the job
 * browser and fallback dashboard.
 */
export default function DashboardScreen() {
  const { status, profile } = useAuth();
  const { search, hash } = useLocation();
  if (status === 'loading') return <LoadingState label={MSG.auth.checkingAuthentication} />;
  if (status === 'signedOut') {
    return (
      <div className="page page--narrow page--centered">
        <PageHeading>{MSG.jobs.signInToView}</PageHeading>
        <Link to="/sign-in" state={{ from: '/dashboard' } satisfies NavigationState} className="button">
          Sign In
        </Link>
      </div>
    );
  }
  if (profile?.role === 'worker' || profile?.role === 'poster') return <Navigate to={{ pathname: ROLE_HOME[profile.role], search, hash }} replace />;
  return <JobBrowser />;
}

function JobBrowser() {
  useStripeSetupReturn(MSG.payments.setupReturned);
  return (
    <div className="page">
      <PageHeading>Find Jobs</PageHeading>
      <p className="page__lead">Open jobs near you, newest first. New jobs appear here as they are posted.</p>
      <section aria-labelledby="open-jobs-heading">
        {/* The cards' titles are h3: the board needs its h2, which the lead above already says. */}
        <h2 id="open-jobs-heading" className="visually-hidden">
          Open jobs
        </h2>
        <JobBoard feed="personal" />
      </section>
    </div>
  );
}
