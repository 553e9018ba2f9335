import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { NOTIFICATION_TYPE_LABELS } from '../../shared/notifications.js';
import type { ReceivedPush, ReceiverSubscription } from '../../infra/local/push-receiver.js';
import { newAccount, signUpAndVerify } from './accounts-helpers.js';
import { callApi, idTokenOf, newReadyUser, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { connectPaymentAccount } from './payments-helpers.js';
import { signIn, signedInPage } from './sign-in.js';
import { e2eTarget } from './target.js';

/** What the click check uses of a service worker's global scope (TypeScript's DOM library does not declare it). */
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { matchAll: () => Promise<unknown[]>; openWindow: (url: string) => Promise<unknown> };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: Notification }) => Event;

/** The notifications the app's service worker shows, read in the page through its registration. */
const shownNotifications = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
      title: notification.title,
      body: notification.body,
      icon: notification.icon,
      url: (notification.data as { url: string }).url,
    })),
  );

/**
 * Delivers pushes to the app's service worker in `page`'s browser as its push service would,
 * through the DevTools protocol (ServiceWorker.deliverPushMessage): this Chromium cannot reach
 * Google's push service. Call before or after the worker is registered.
 *
 * A push service keeps a message until the browser takes it and delivers it again; the protocol
 * command is fire-and-forget, and on a loaded machine a message handed to a worker still starting
 * is dropped (seen in CI: the second of two pushes never shown in 20 s). So, as a push service
 * would, a message not shown within a few seconds is delivered again (at most four times); the
 * caller's assertion then judges what the worker showed.
 */
async function pushDelivery(page: Page): Promise<(data: string) => Promise<void>> {
  const origin = new URL(webUrl('/')).origin;
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const shownCount = async () => (await shownNotifications(page)).length;
  return async (data) => {
    const registration = await registrationId;
    const before = await shownCount();
    for (let delivery = 1; delivery <= 4; delivery += 1) {
      // The browser stops a worker left idle for 30 s (the quiet-hours test waits longer): it is
      // started again before the message is delivered.
      await cdp.send('ServiceWorker.startWorker', { scopeURL: `${origin}/` });
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration, data });
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((wait) => setTimeout(wait, 250))) {
        if ((await shownCount()) > before) return;
      }
    }
  };
}

/** A subscription at the stack's local push service (infra/local/push-receiver.ts) for an app with this VAPID public key. */
async function subscribeAtLocalPushService(applicationServerKey: string): Promise<ReceiverSubscription> {
  const answer = await fetch(`${e2eTarget().pushReceiverUrl}/subscriptions`, { method: 'POST', body: JSON.stringify({ applicationServerKey }) });
  if (answer.status !== 201) throw new Error(`local push service: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as ReceiverSubscription;
}

/** What the local push service received for a subscription (decrypted), oldest first. */
const pushesReceivedBy = async (endpoint: string) => ((await (await fetch(endpoint)).json()) as { received: ReceivedPush[] }).received;

/**
 * Makes this browser's push subscriptions ones at the stack's local push service. Chromium's
 * pushManager.subscribe() asks Google's push service, which this machine cannot reach (the
 * last test of this file), so the push service is the one piece of the way a browser test cannot
 * use for real: here subscribe() answers a subscription at the local service, made with the
 * key the app passes, and getSubscription() answers it after (kept in localStorage, as the
 * browser keeps its own). All else is the app's own: its opt-in asks the permission, registers
 * the service worker and saves the subscription through the API; the server encrypts and signs
 * each push for it; the local service decrypts what arrives, which the test hands on to the
 * service worker (pushDelivery).
 */
async function subscribeThroughLocalPushService(context: BrowserContext): Promise<void> {
  await context.exposeFunction('subscribeAtLocalPushService', subscribeAtLocalPushService);
  await context.addInitScript(() => {
    const KEPT = 'local-push-service-subscription';
    const page = window as unknown as { subscribeAtLocalPushService: (key: string) => Promise<PushSubscriptionJSON & { endpoint: string }> };
    const asSubscription = (json: PushSubscriptionJSON & { endpoint: string }) =>
      ({
        endpoint: json.endpoint,
        expirationTime: null,
        toJSON: () => json,
        unsubscribe: () => {
          localStorage.removeItem(KEPT);
          return Promise.resolve(true);
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async (options) => {
      const key = options?.applicationServerKey;
      if (typeof key !== 'string') throw new TypeError('The app passes its VAPID public key as base64url');
      const json = await page.subscribeAtLocalPushService(key);
      localStorage.setItem(KEPT, JSON.stringify(json));
      return asSubscription(json);
    };
    PushManager.prototype.getSubscription = () => {
      const kept = localStorage.getItem(KEPT);
      return Promise.resolve(kept ? asSubscription(JSON.parse(kept) as PushSubscriptionJSON & { endpoint: string }) : null);
    };
  });
}

describe('web push in a browser', () => {
  const browser = useBrowser();

  it("shows a push delivered to the service worker (DevTools protocol) and opens its subject on click", async () => {
    const context = await browser().newContext({ permissions: ['notifications'] });
    const page = await context.newPage();
    await page.goto(webUrl('/'));
    const origin = new URL(webUrl('/')).origin;

    const deliverPush = await pushDelivery(page);
    const workerStarted = context.serviceWorkers()[0] ? Promise.resolve(context.serviceWorkers()[0]!) : context.waitForEvent('serviceworker');
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/service-worker.js');
      // `ready` resolves once a worker is active, possibly still activating: a push delivered
      // then can be lost on a busy machine, so wait for it to be activated.
      const { active } = await navigator.serviceWorker.ready;
      if (active && active.state !== 'activated') {
        await new Promise<void>((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve()));
      }
    });

    // What the server's sender puts in a push (functions/lib/web-push.ts), delivered as a push service would.
    const payload = { title: 'You were hired', body: 'Poster accepted your application for "Paint a fence"', url: '/jobs/job-123' };
    await deliverPush(JSON.stringify(payload));
    await expect.poll(() => shownNotifications(page)).toEqual([{ title: payload.title, body: payload.body, icon: `${origin}/favicon.svg`, url: `${origin}/jobs/job-123` }]);

    // A payload naming another site opens the notifications list instead.
    await deliverPush(JSON.stringify({ ...payload, url: 'https://evil.example/phish' }));
    await expect.poll(async () => (await shownNotifications(page)).map((shown) => shown.url)).toContain(`${origin}/notifications`);

    // No protocol command clicks a notification: the click is dispatched in the worker, with
    // the shown notification, and the Clients API recorded (an untrusted event may not open windows).
    const worker: Worker = await workerStarted;
    const opened = await worker.evaluate(async (jobUrl) => {
      const sw = self as unknown as WorkerScope;
      const notification = (await sw.registration.getNotifications()).find((shown) => (shown.data as { url: string }).url === jobUrl)!;
      const calls: string[] = [];
      const tabs: Array<{ url: string; focus: () => Promise<void> }> = [];
      sw.clients.matchAll = () => Promise.resolve(tabs);
      sw.clients.openWindow = (url: string) => {
        calls.push(`open ${url}`);
        return Promise.resolve(null);
      };
      const click = async () => {
        sw.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
        await new Promise((settle) => setTimeout(settle, 50));
      };
      await click();
      // A tab already on the page is focused rather than another opened.
      tabs.push({ url: jobUrl, focus: () => Promise.resolve(void calls.push(`focus ${jobUrl}`)) });
      await click();
      return { calls, stillShown: (await sw.registration.getNotifications()).some((shown) => shown === notification || (shown.data as { url: string }).url === jobUrl) };
    }, `${origin}/jobs/job-123`);
    expect(opened).toEqual({ calls: [`open ${origin}/jobs/job-123`, `focus ${origin}/jobs/job-123`], stillShown: false });

    await context.close();
  });

  it("holds a push back during the quiet hours a poster in Los Angeles set, by Los Angeles' clock, the notification in the app all along, and shows it once they are over", async () => {
    // A new poster (the quiet hours and push choice stay off the demo users other files use),
    // whose browser is in Los Angeles: a poster saves no location, the preferences carry the zone.
    const zone = 'America/Los_Angeles';
    const account = newAccount('poster', 'Quinn Quiet');
    const context = await browser().newContext({ permissions: ['notifications'], viewport: { width: 390, height: 844 }, timezoneId: zone });
    await subscribeThroughLocalPushService(context);
    const page = await context.newPage();
    await signUpAndVerify(page, account);
    await signIn(page, account.email, account.password);
    // A poster posts once their payment account is set up.
    await connectPaymentAccount(page);

    // Push turned on in this browser, and chosen for a new applicant.
    await page.goto(webUrl('/notification-settings'));
    // A poster's settings: no location or nearby-job alerts, which are a worker's.
    await page.getByRole('button', { name: MSG.notifications.pushOptIn }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: MSG.notifications.pushOn }).count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'Notify me about new jobs near me' }).count()).toBe(0);
    const endpoint = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint ?? '');
    expect(endpoint.startsWith(`${e2eTarget().pushReceiverUrl}/push/`)).toBe(true);
    await page.getByRole('checkbox', { name: `${NOTIFICATION_TYPE_LABELS.new_applicant}: by push` }).check();

    const title = `Oil a garden bench ${randomUUID().slice(0, 6)}`;
    const [posterToken, worker] = await Promise.all([idTokenOf(account.email, account.password), newReadyUser('Wes Worker')]);
    const job = await postPaidJob(posterToken, title);

    // Quiet from the minute before this one until the next, on Los Angeles' clock (hours from
    // UTC's, which quiet hours ran in for a poster before). Begun late in a minute, wait for the
    // next one, so that saving and the application fall inside the hours.
    if (new Date().getUTCSeconds() > 30) await new Promise((resolve) => setTimeout(resolve, (60 - new Date().getUTCSeconds()) * 1000));
    const quietEnd = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    const hhmm = (at: number) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    // The switch's input is visually hidden under its label, which takes the click.
    await page.locator('label', { hasText: 'Quiet hours' }).click();
    expect(await page.getByRole('switch', { name: 'Quiet hours' }).isChecked()).toBe(true);
    await page.getByLabel('From', { exact: true }).fill(hhmm(quietEnd - 120_000));
    await page.getByLabel('Until', { exact: true }).fill(hhmm(quietEnd));
    await page.getByText(`In your time zone: ${zone}`).waitFor();
    await page.getByRole('button', { name: MSG.location.savePreferences }).click();
    await expect.poll(toastShown(page, MSG.location.preferencesSaved)).toBe(1);

    // A worker applies during the quiet hours.
    await callApi('POST', `/jobs/${job.id}/applications`, worker.token, {});
    expect(Date.now(), 'applied after the quiet hours: the test began too late in its minute').toBeLessThan(quietEnd);

    // In the app at once (the bell, live); pushed not yet, up to the last second of the hours.
    const message = MSG.applications.newApplicantMessage('Wes Worker', title);
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const inApp = page.getByRole('region', { name: 'Recent notifications', exact: true }).getByRole('button').filter({ hasText: message });
    await expect.poll(() => inApp.count()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, quietEnd - 1000 - Date.now()));
    expect(await pushesReceivedBy(endpoint)).toEqual([]);
    expect(await inApp.count()).toBe(1);

    // Once the hours are over the push arrives (the mailer's queue held it until then), once.
    await expect.poll(async () => (await pushesReceivedBy(endpoint)).length, { timeout: 150_000, interval: 1000 }).toBeGreaterThan(0);
    const [push, ...more] = await pushesReceivedBy(endpoint);
    expect(more).toEqual([]);
    expect(Date.parse(push!.receivedAt)).toBeGreaterThanOrEqual(quietEnd);
    const expected = { title: MSG.applications.newApplicantTitle, body: message, url: `/jobs/${job.id}?tab=applications` };
    expect(JSON.parse(push!.payload)).toEqual(expected);

    // What the push service got, handed to the browser as its push service would: the poster's notification.
    const deliverPush = await pushDelivery(page);
    await deliverPush(push!.payload);
    const origin = new URL(webUrl('/')).origin;
    // A CI machine running both suites side by side may take a while to start the idle worker again.
    await expect.poll(() => shownNotifications(page), { timeout: 60_000 }).toEqual([{ ...expected, icon: `${origin}/favicon.svg`, url: `${origin}${expected.url}` }]);
    expect(await pushesReceivedBy(endpoint)).toHaveLength(1);
    await context.close();
  }, 300_000);

  it('tells the user push is unavailable on this browser when subscribing fails, and the settings page keeps working', async () => {
    // Chromium's pushManager.subscribe() asks Google's push service, which this machine cannot reach.
    const context = await browser().newContext({ permissions: ['notifications'], viewport: { width: 375, height: 812 } });
    const page = await signedInPage(context, 'wendy@oddjobs.test');
    await page.goto(webUrl('/notification-settings'));
    const pushBox = page.getByRole('checkbox', { name: /payment was released to you: by push/i });
    await expect.poll(() => pushBox.isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: MSG.notifications.pushOff }).count()).toBe(1);

    await page.getByRole('button', { name: MSG.notifications.pushOptIn }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: MSG.notifications.pushUnavailableHere }).count(), { timeout: 40_000 }).toBe(1);
    expect(await page.getByRole('button', { name: MSG.notifications.pushOptIn }).count()).toBe(0);
    expect(await pushBox.isDisabled()).toBe(true);

    // The rest of the page still works.
    await page.getByRole('checkbox', { name: /payment was released to you: in the app/i }).uncheck();
    await page.getByRole('button', { name: MSG.location.savePreferences }).click();
    await expect.poll(toastShown(page, MSG.location.preferencesSaved)).toBe(1);
    await page.getByRole('checkbox', { name: /payment was released to you: in the app/i }).check();
    await page.getByRole('button', { name: MSG.location.savePreferences }).click();
    await expect.poll(toastShown(page, MSG.location.preferencesSaved)).toBeGreaterThanOrEqual(1);
    await context.close();
  });
});
