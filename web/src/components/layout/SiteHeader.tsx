import { Link } from 'react-router-dom';
import { ROLE_HOME } from '../../../../shared/roles';
import { useUnreadMessageTotal } from '../../chat/queries';
import { useChatLiveSync } from '../../chat/useChatLiveSync';
import { useAuth } from '../../hooks/useAuth';
import { NotificationBell } from '../notifications/NotificationBell';
import { AdminToolsBar } from './AdminToolsBar';
import { MessagesLink } from './MessagesLink';
import { MobileMenu } from './MobileMenu';
import { NavItemLink } from './NavItemLink';
import { mainNavItems } from './navigation';
import { UserMenu } from './UserMenu';

/** Logo, navigation per role, the account controls, and the admin's tools bar. */
export function SiteHeader() {
  const { status, profile } = useAuth();
  const signedIn = status === 'signedIn';
  const role = profile?.role;
  const unreadMessages = useUnreadMessageTotal();
  // The header is on every page: it keeps the chat's cache (and so its badge) live.
  useChatLiveSync();
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
                <>
                  <MessagesLink unreadCount={unreadMessages} />
                  <NotificationBell />
                  <UserMenu profile={profile} />
                </>
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
