import { Link, NavLink } from 'react-router-dom';
import { ROLE_HOME, type Role } from '../../../../shared/roles';
import { useAuth, type AuthStatus } from '../../hooks/useAuth';
import { UserMenu } from './UserMenu';

interface NavItem {
  to: string;
  label: string;
}

/** The main navigation per role (spec 1 §2 "Header navigation"). */
function navItemsFor(status: AuthStatus, role: Role | undefined): NavItem[] {
  if (status === 'loading') return [];
  if (status === 'signedOut') {
    return [
      { to: '/#jobs', label: 'Find Jobs' },
      { to: '/post-job', label: 'Post Job' },
    ];
  }
  switch (role) {
    case 'poster':
      return [
        { to: ROLE_HOME.poster, label: 'Dashboard' },
        { to: '/post-job', label: 'Post Job' },
      ];
    case 'worker':
      return [
        { to: '/dashboard', label: 'Find Jobs' },
        { to: ROLE_HOME.worker, label: 'Dashboard' },
      ];
    case 'admin':
      return [{ to: ROLE_HOME.admin, label: 'Dashboard' }];
    default:
      return [{ to: '/dashboard', label: 'Dashboard' }];
  }
}

export function SiteHeader() {
  const { status, profile } = useAuth();
  const role = profile?.role;
  const items = navItemsFor(status, role);
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to={role === 'poster' ? ROLE_HOME.poster : '/'} className="logo">
          OddJobs
        </Link>
        {items.length > 0 ? (
          <nav aria-label="Main" className="site-nav">
            <ul>
              {items.map((item) => (
                <li key={item.to}>
                  {/* A section link ("/#jobs") is not a page of its own: it never marks itself current. */}
                  {item.to.includes('#') ? (
                    <Link to={item.to} className="site-nav__link">
                      {item.label}
                    </Link>
                  ) : (
                    <NavLink to={item.to} end className="site-nav__link">
                      {item.label}
                    </NavLink>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="site-header__account">
          {status === 'signedIn' ? <UserMenu profile={profile} /> : null}
          {status === 'signedOut' ? (
            <>
              <Link to="/sign-in" className="button button--ghost">
                Sign In
              </Link>
              <Link to="/sign-up" className="button">
                Sign Up
              </Link>
            </>
          ) : null}
        </div>
      </div>
      {role === 'admin' ? <AdminToolsBar /> : null}
    </header>
  );
}

function AdminToolsBar() {
  return (
    <div className="admin-bar">
      <div className="admin-bar__inner">
        <span className="admin-bar__title">Admin Tools</span>
        <span className="admin-bar__notice">Admin Mode Active</span>
        <Link to={ROLE_HOME.admin} className="button button--small">
          Dashboard
        </Link>
      </div>
    </div>
  );
}
