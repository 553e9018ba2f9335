import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '../../../../shared/messages';
import { useAuth } from './useAuth';
import { useToast } from '../toast/useToast';

/**
 * Goes home and signs out; a failed sign-out is reported but still ends on the home page
 * (spec 1 §4). Resolves to whether the sign-out went through without an error.
 */
export function useSignOut(): (options?: { everywhere?: boolean }) => Promise<boolean> {
  const { signOut } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  return useCallback(
    async (options?: { everywhere?: boolean }) => {
      // Home first, and at once (not as a transition, which keeps the old page on screen while the
      // landing screen loads): a guarded page still showing would send the signed-out user to sign in.
      await navigate('/', { flushSync: true });
      try {
        await signOut(options);
        return true;
      } catch {
        toast.error(MSG.auth.failedToSignOut);
        return false;
      }
    },
    [signOut, toast, navigate],
  );
}
