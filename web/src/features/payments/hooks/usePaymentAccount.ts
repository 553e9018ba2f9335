import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import type { PaymentAccount } from '../../../../../shared/payments';
import { apiErrorText } from '../../../lib/api/client';
import { refreshPaymentAccount } from '../api/refresh-payment-account';
import { startPaymentAccountSetup } from '../api/start-payment-account-setup';
import { useApi } from '../../../lib/api/useApi';
import { isPaymentSetupComplete } from '../payment-account';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast, type Toaster } from '../../../lib/toast/useToast';

/** Phones and touch devices: Stripe's onboarding replaces the app rather than opening a window (spec 1 §9). */
function isMobileOrTouch(): boolean {
  return window.matchMedia('(pointer: coarse)').matches || window.innerWidth < 768;
}

// Set while this tab has sent the user to Stripe's onboarding and the account is not complete yet.
const SETUP_STARTED_KEY = 'oddjobs.payment-setup-started';
// Every tab of the app hears on it when one of them saw the account change (back from Stripe).
const ACCOUNT_CHANNEL = 'oddjobs.payment-account';

/** Tells the app's other tabs that the payment account changed, so they read it again. */
export function announcePaymentAccountChange(): void {
  const channel = new BroadcastChannel(ACCOUNT_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** Opens Stripe's onboarding: a new window on desktop (saying so), the same window on mobile, touch, or when the window was blocked. */
function openAccountLink(url: string, toast: Toaster): void {
  sessionStorage.setItem(SETUP_STARTED_KEY, 'true');
  const opened = isMobileOrTouch() ? null : window.open(url, '_blank');
  if (!opened) {
    window.location.assign(url);
    return;
  }
  opened.opener = null;
  toast.info(MSG.payments.setupOpenedInNewWindow);
}

export interface PaymentAccountActions {
  /** The call under way, to disable its button. */
  busy: 'connect' | 'refresh' | null;
  /** 'Connect Stripe Account' / 'Continue Setup': a fresh onboarding link, opened. */
  connect(): Promise<void>;
  /** 'Refresh Status', with its success or failure toast. */
  refresh(): Promise<void>;
  /** Re-reads the account from Stripe and reloads the profile; null when that failed. */
  recheck(): Promise<PaymentAccount | null>;
}

/** The signed-in user's payment account actions (spec 1 §7 create-stripe-account, get-stripe-account-status). */
export function usePaymentAccount(): PaymentAccountActions {
  const api = useApi();
  const toast = useToast();
  const { refreshProfile } = useAuth();
  const [busy, setBusy] = useState<PaymentAccountActions['busy']>(null);

  const recheck = useCallback(async () => {
    try {
      const account = await refreshPaymentAccount(api);
      await refreshProfile();
      return account;
    } catch {
      return null;
    }
  }, [api, refreshProfile]);

  async function connect() {
    setBusy('connect');
    try {
      const { accountLinkUrl } = await startPaymentAccountSetup(api);
      if (accountLinkUrl) openAccountLink(accountLinkUrl, toast);
      else toast.error(MSG.payments.setupFailed);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.payments.connectFailed));
    } finally {
      setBusy(null);
    }
  }

  async function refresh() {
    setBusy('refresh');
    const account = await recheck();
    if (account) toast.success(MSG.payments.statusRefreshed);
    else toast.error(MSG.payments.statusRefreshFailed);
    setBusy(null);
  }

  return { busy, connect, refresh, recheck };
}

/**
 * Keeps the signed-in user's payment account current in every tab (mounted once, in App): the
 * onboarding opens in another window on desktop and returns there, so this tab reads the profile
 * again when that tab announces the change, and re-checks the account with Stripe when the user
 * comes back to it (focus, visibility) or loads a page in it while a setup it started is unfinished.
 */
export function usePaymentAccountSync(): void {
  const { profile, refreshProfile } = useAuth();
  const { recheck } = usePaymentAccount();
  const unfinished = profile !== null && !isPaymentSetupComplete(profile.paymentAccount);

  const onAnnounced = useEffectEvent(() => void refreshProfile());
  const onBack = useEffectEvent(() => {
    if (!unfinished || !sessionStorage.getItem(SETUP_STARTED_KEY)) return;
    void recheck().then((account) => {
      if (account && isPaymentSetupComplete(account)) sessionStorage.removeItem(SETUP_STARTED_KEY);
    });
  });

  // A page loaded in the tab that went to Stripe (the phone's way back, or a reload) may have left
  // before the return's re-check answered: it asks Stripe again once the profile shows it unfinished.
  useEffect(() => {
    if (unfinished) onBack();
  }, [unfinished]);

  useEffect(() => {
    const channel = new BroadcastChannel(ACCOUNT_CHANNEL);
    channel.onmessage = () => onAnnounced();
    const back = () => {
      if (document.visibilityState === 'visible') onBack();
    };
    document.addEventListener('visibilitychange', back);
    window.addEventListener('focus', back);
    return () => {
      channel.close();
      document.removeEventListener('visibilitychange', back);
      window.removeEventListener('focus', back);
    };
  }, []);
}
