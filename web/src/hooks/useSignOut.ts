import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { useAuth } from './useAuth';
import { useToast } from './useToast';

/** Signs out and goes home; a failed sign-out is reported but still ends on the home page (spec 1 §4). */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await signOut();
    } catch {
      toast.error(MSG.auth.failedToSignOut);
    }
    navigate('/');
  }, [signOut, toast, navigate]);
}
