import { Link } from 'react-router-dom';
import { dashboardPath } from '../../../lib/auth/destinations';
import { useAuth } from '../../../lib/auth/useAuth';
import { useSignOut } from '../../../lib/auth/useSignOut';
import { MSG } from '../../../../../shared/messages';

/** The two sign-up doors and a sign-in link for visitors; Dashboard and Sign Out for signed-in users (spec 1 §2). */
export function HeroActions() {
  const { status, profile } = useAuth();
  const signOut = useSignOut();

  // Keeps the hero's height while the session loads, so nothing jumps.
  if (status === 'loading') return <div className="hero__actions" aria-hidden="true" />;
  if (status === 'signedIn') {
    return (
      <div className="hero__actions">
        <Link to={dashboardPath(profile)} className="button button--large">
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
          {MSG.landing.earnMoney}
        </Link>
        <Link to="/sign-up?role=poster" className="button button--large button--inverse">
          {MSG.landing.needHelp}
        </Link>
      </div>
      <p className="hero__sign-in">
        Already have an account? <Link to="/sign-in">Sign In</Link>
      </p>
    </>
  );
}
