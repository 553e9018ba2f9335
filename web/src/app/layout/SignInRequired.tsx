import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MSG } from '../../../../shared/messages';
import { useAuth } from '../../lib/auth/useAuth';
import type { NavigationState } from '../../lib/navigation-state';
import { LoadingState } from '../../lib/components/LoadingState';
import { PageHeading } from '../../lib/components/PageHeading';

/**
 * For pages the spec has tell signed-out visitors to sign in rather than send them away: the
 * message and a Sign In button that comes back here. Signed-in users get the page.
 */
export function SignInRequired({ message, children }: { message: string; children: ReactNode }) {
  const { status } = useAuth();
  const { pathname, search } = useLocation();
  if (status === 'loading') return <LoadingState label={MSG.auth.checkingAuthentication} />;
  if (status === 'signedIn') return children;
  return (
    <div className="page page--narrow page--centered">
      <PageHeading>{message}</PageHeading>
      <Link to="/sign-in" state={{ from: `${pathname}${search}` } satisfies NavigationState} className="button">
        Sign In
      </Link>
    </div>
  );
}
