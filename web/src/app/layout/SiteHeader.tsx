import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { ROLE_HOME } from '../../../../shared/roles';
import { useAuth } from '../../lib/auth/useAuth';
import { AdminToolsBar } from './AdminToolsBar';
import { MessagesLink } from './MessagesLink';
import { MobileMenu } from './MobileMenu';
import { NavItemLink } from './NavItemLink';
import { mainNavItems } from '../../lib/navigation';

const loadSignedInControls = () => import('./SignedInControls');
const SignedInControls = lazy(loadSignedInControls);

/** Starts downloading the signed-in header controls (at start-up when a session is kept, on the sign-in screen). */
export function preloadSignedInControls(): void {
  loadSignedInControls().catch(() => undefined); // React.lazy reports a failed download when they render
}

/** Logo, navigation per role, the account controls, and the admin's tools bar. */
export function SiteHeader() {
  const { status, profile } = useAuth();
  const signedIn = status === 'signedIn';
  const role = profile?.role;
  return (
    <header className="site-header">
      <div className="site-header__inner">
        {/* Posters start from their dashboard, everyone else from the landing page (spec 1 §2). */}
        <Link to={role === 'poster' ? ROLE_HOME.poster : '/'} className="logo">
          OddJobs
        </Link>
        {status === 'loading' ? null : (
          <>
            <nav aria-label="Main" className="site-nav">
              <ul>
                {mainNavItems(signedIn, profile).map((item) => (
                  <li key={item.label}>
                    <NavItemLink item={item} className="site-nav__link" />
                  </li>
                ))}
              </ul>
            </nav>
            <div className="site-header__account">
              {signedIn ? (
                <Suspense fallback={<SignedInControlsSlots />}>
                  <SignedInControls profile={profile} />
                </Suspense>
              ) : (
                <div className="site-header__auth-buttons">
                  <Link to="/sign-in" className="button button--ghost">
                    Sign In
                  </Link>
                  <Link to="/sign-up" className="button">
                    Sign Up
                  </Link>
                </div>
              )}
              <MobileMenu signedIn={signedIn} profile={profile} />
            </div>
          </>
        )}
      </div>
      {role === 'admin' ? <AdminToolsBar /> : null}
    </header>
  );
}

/**
 * What stands for the signed-in controls while their chunk loads: Messages itself (it needs
 * nothing from the chunk but its badge) and the room of the bell and the avatar, so the header
 * neither shifts nor shows a moment without Messages.
 */
function SignedInControlsSlots() {
  return (
    <>
      <MessagesLink unreadCount={0} />
      <span className="header-control-slot" aria-hidden="true" />
      <span className="header-control-slot" aria-hidden="true" />
    </>
  );
}
