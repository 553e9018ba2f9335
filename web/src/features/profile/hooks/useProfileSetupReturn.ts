import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROLE_HOME } from '../../../../../shared/roles';
import { useAuth } from '../../../lib/auth/useAuth';
import { useStripeSetupReturn } from '../../payments';
import { MSG } from '../../../../../shared/messages';

/** Spec 2 §6 and §9: how long a poster sees the finished setup before going to their dashboard. */
const POSTER_REDIRECT_MS = 2000;

/** Back from Stripe's onboarding on /profile: a poster whose account is now complete goes to /poster-dashboard after 2 s. */
export function useProfileSetupReturn(): void {
  const { profile } = useAuth();
  const navigate = useNavigate();
  const [redirect, setRedirect] = useState(false);
  useStripeSetupReturn(MSG.payments.setupReturned, (account) => setRedirect(profile?.role === 'poster' && account?.status === 'complete'));

  useEffect(() => {
    if (!redirect) return;
    const timer = window.setTimeout(() => navigate(ROLE_HOME.poster), POSTER_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [redirect, navigate]);
}
