import { useCallback, useEffect, useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { pushSubscriptionSchema } from '../../../../../shared/schemas/push';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { fetchPushPublicKey } from '../api/fetch-push-public-key';
import { removePushSubscription } from '../api/remove-push-subscription';
import { savePushSubscription } from '../api/save-push-subscription';

/**
 * Push on this browser: being checked, unavailable (no Push API, or the browser's push service
 * refused or could not be reached), blocked by the user in the browser's settings, off, or on.
 */
export type WebPushStatus = 'checking' | 'unavailable' | 'blocked' | 'off' | 'on';

const SERVICE_WORKER_URL = '/service-worker.js';
/**
 * How long subscribing may take before push counts as unavailable here: the browser asks its
 * vendor's push service, which may be unreachable (as on a machine without that network).
 */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const withinTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('push subscription timed out')), ms))]);

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Turns web push on or off for the signed-in user on this browser: asks the browser's
 * permission, registers the service worker that shows pushes, subscribes with the server's VAPID
 * public key and saves the subscription for the user (off: removes it and unsubscribes).
 * `error` is what the last attempt could not do, for the page to show.
 */
export function useWebPush() {
  const api = useApi();
  const [status, setStatus] = useState<WebPushStatus>('checking');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    const settle = (next: WebPushStatus) => current && setStatus(next);
    if (!pushSupported()) settle('unavailable');
    else if (Notification.permission === 'denied') settle('blocked');
    else currentSubscription().then((subscription) => settle(subscription ? 'on' : 'off'), () => settle('unavailable'));
    return () => {
      current = false;
    };
  }, []);

  const turnOn = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setStatus(permission === 'denied' ? 'blocked' : 'off');
        return;
      }
      const publicKey = await fetchPushPublicKey(api);
      let subscription: PushSubscription;
      try {
        const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
        await navigator.serviceWorker.ready;
        subscription = await withinTimeout(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }), SUBSCRIBE_TIMEOUT_MS);
      } catch (refused) {
        console.warn('push subscription refused', refused);
        setStatus('unavailable');
        return;
      }
      await savePushSubscription(api, pushSubscriptionSchema.parse(subscription.toJSON()));
      setStatus('on');
    } catch (failed) {
      setError(apiErrorText(failed, MSG.notifications.pushServiceUnavailable));
    } finally {
      setBusy(false);
    }
  }, [api]);

  const turnOff = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await removePushSubscription(api, subscription.endpoint);
        await subscription.unsubscribe();
      }
      setStatus('off');
    } catch (failed) {
      setError(apiErrorText(failed, MSG.notifications.pushServiceUnavailable));
    } finally {
      setBusy(false);
    }
  }, [api]);

  return { status, busy, error, turnOn, turnOff };
}
