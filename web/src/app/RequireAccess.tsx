import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import type { Role } from '../../../shared/roles';
import { useAuth } from '../lib/auth/useAuth';
import { useToast } from '../lib/toast/useToast';
import type { NavigationState } from '../lib/navigation-state';
import { LoadingState } from '../lib/components/LoadingState';

interface RequireAccessProps {
  /** Roles allowed in; omitted, any signed-in user is. */
  roles?: readonly Role[];
  /** Where signed-out visitors are sent. */
  signedOutTo: string;
  /** Whether sign-in should bring signed-out visitors back here afterwards. */
  returnAfterSignIn?: boolean;
  /** Where signed-in users of other roles are sent, and the error they are shown. */
  deniedTo?: string;
  deniedMessage?: string;
  children: ReactNode;
}

/**
 * A screen's access rule as the browser applies it. It only spares users a screen they cannot
 * use: the API enforces every rule again.
 */
export function RequireAccess({ roles, signedOutTo, returnAfterSignIn = false, deniedTo = '/', deniedMessage, children }: RequireAccessProps) {
  const { status, profile } = useAuth();
  const location = useLocation();

  if (status === 'loading') return <LoadingState label={MSG.auth.checkingAuthentication} />;
  if (status === 'signedOut') {
    const state: NavigationState | undefined = returnAfterSignIn ? { from: `${location.pathname}${location.search}${location.hash}` } : undefined;
    return <Navigate to={signedOutTo} replace state={state} />;
  }
  if (roles && !(profile && roles.includes(profile.role))) {
    return deniedMessage ? <RedirectWithError to={deniedTo} message={deniedMessage} /> : <Navigate to={deniedTo} replace />;
  }
  return children;
}

function RedirectWithError({ to, message }: { to: string; message: string }) {
  const toast = useToast();
  useEffect(() => toast.error(message), [toast, message]);
  return <Navigate to={to} replace />;
}
