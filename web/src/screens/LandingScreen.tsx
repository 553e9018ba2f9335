import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ROLE_HOME } from '../../../shared/roles';
import { JobBoard } from '../components/jobs/JobBoard';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';
import { useSignOut } from '../hooks/useSignOut';

export default function LandingScreen() {
  const { status } = useAuth();
  const { hash, key } = useLocation();

  // "Find Jobs" links to /#jobs; the router does not scroll to fragments by itself.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: 'smooth' });
  }, [hash, key]);

  return (
    <>
      <section className="hero">
        <div className="hero__inner">
          <PageHeading className="hero__title">Local odd jobs, done today</PageHeading>
          <p className="hero__lead">
            Earn $25-75 per hour with same-day pay and no experience needed, or get a hand with the tasks on your list.
            Sign up in 30 seconds; post a job in 60.
          </p>
          <HeroActions />
        </div>
      </section>

      <section id="jobs" className="section" aria-labelledby="jobs-heading">
        <div className="section__inner">
          <h2 id="jobs-heading">Open Jobs</h2>
          <p className="section__lead">Fixed-price gigs posted by people in your area.</p>
          <JobBoard feed={status === 'loading' ? null : status === 'signedIn' ? 'personal' : 'public'} />
        </div>
      </section>
    </>
  );
}

function HeroActions() {
  const { status, profile } = useAuth();
  const signOut = useSignOut();

  if (status === 'loading') return <div className="hero__actions" aria-hidden="true" />;
  if (status === 'signedIn') {
    return (
      <div className="hero__actions">
        <Link to={profile ? ROLE_HOME[profile.role] : '/dashboard'} className="button button--large">
          Dashboard
        </Link>
        <button type="button" className="button button--large button--inverse" onClick={() => void signOut()}>
          Sign Out
        </button>
      </div>
    );
  }
  return (
    <>
      <div className="hero__actions">
        <Link to="/sign-up?role=worker" className="button button--large">
          I Want to Earn Money
        </Link>
        <Link to="/sign-up?role=poster" className="button button--large button--inverse">
          Need Help With Tasks
        </Link>
      </div>
      <p className="hero__sign-in">
        Already have an account? <Link to="/sign-in">Sign In</Link>
      </p>
    </>
  );
}
