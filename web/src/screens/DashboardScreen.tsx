import { Link } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { JobBoard } from '../components/jobs/JobBoard';
import { LoadingState } from '../components/LoadingState';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';
import { useStripeSetupReturn } from '../hooks/useStripeSetupReturn';
import type { NavigationState } from '../lib/navigation-state';

/** Job browsing for signed-in users (the landing grid is the public one), and the fallback dashboard. */
export default function DashboardScreen() {
  const { status } = useAuth();
  useStripeSetupReturn(MSG.payments.setupReturned);
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
