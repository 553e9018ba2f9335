import { useEffect, useEffectEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PaymentAccount } from '../../../../../shared/payments';
import { useToast } from '../../../lib/toast/useToast';
import { announcePaymentAccountChange, usePaymentAccount } from './usePaymentAccount';

export const STRIPE_SETUP_PARAM = 'stripe_setup';

/**
 * Back from Stripe's onboarding (`?stripe_setup=success`): shows `message`, re-checks the payment
 * account (which reloads the profile), hands the result to `onChecked`, and clears the parameter.
 */
export function useStripeSetupReturn(message: string, onChecked?: (account: PaymentAccount | null) => void): void {
  const [params, setParams] = useSearchParams();
  const toast = useToast();
  const { recheck } = usePaymentAccount();
  const returned = params.get(STRIPE_SETUP_PARAM) === 'success';

  const handleReturn = useEffectEvent(() => {
    toast.success(message);
    void recheck().then((account) => {
      // The tab that opened the onboarding (desktop) still shows the old state: tell it.
      if (account) announcePaymentAccountChange();
      onChecked?.(account);
    });
  });

  useEffect(() => {
    if (!returned) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(STRIPE_SETUP_PARAM);
        return next;
      },
      { replace: true },
    );
    handleReturn();
  }, [returned, setParams]);
}
