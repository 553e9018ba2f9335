import type { Page, Worker } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

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

describe('web push in a browser', () => {
  const browser = useBrowser();

  it("shows a push delivered to the service worker (DevTools protocol) and opens its subject on click", async () => {
    const context = await browser().newContext({ permissions: ['notifications'] });
    const page = await context.newPage();
    await page.goto(webUrl('/'));
    const origin = new URL(webUrl('/')).origin;

    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const workerStarted = context.serviceWorkers()[0] ? Promise.resolve(context.serviceWorkers()[0]!) : context.waitForEvent('serviceworker');
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/service-worker.js');
      await navigator.serviceWorker.ready;
    });

    // What the server's sender puts in a push (functions/lib/web-push.ts), delivered as a push service would.
    const payload = { title: 'You were hired', body: 'Poster accepted your application for "Paint a fence"', url: '/jobs/job-123' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify(payload) });
    await expect.poll(() => shownNotifications(page)).toEqual([{ title: payload.title, body: payload.body, icon: `${origin}/favicon.svg`, url: `${origin}/jobs/job-123` }]);

    // A payload naming another site opens the notifications list instead.
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify({ ...payload, url: 'https://evil.example/phish' }) });
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
