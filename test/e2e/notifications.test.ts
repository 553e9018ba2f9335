import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { useBrowser, webUrl } from './browser.js';
import { fillJobForm, toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signedInPage } from './sign-in.js';


/** Downtown Austin: about 3 miles from where the job form's '77 Rainey St, Austin, TX' geocodes. */
const DOWNTOWN = { latitude: 30.26721, longitude: -97.74312 };

describe('notifications in a browser', () => {
  const browser = useBrowser();

  it('a worker sets a location, a poster posts a job nearby, and the worker sees the toast and the bell without reloading', async () => {
    const title = `Fix a garden gate ${randomUUID().slice(0, 6)}`;
    const workerContext = await browser().newContext({ viewport: { width: 390, height: 844 }, geolocation: DOWNTOWN, permissions: ['geolocation'] });
    const worker = await signedInPage(workerContext, 'marco@oddjobs.test');

    // No location yet: the settings card asks for one.
    await worker.goto(webUrl('/notification-settings'));
    await expect.poll(() => worker.getByText(MSG.location.quickSetupRequired).count()).toBe(1);
    await worker.getByRole('button', { name: MSG.location.getCurrentLocation }).click();
    await expect.poll(toastShown(worker, MSG.location.updated)).toBe(1);
    await expect.poll(() => worker.getByText(MSG.location.locationSetSuccessfully).count()).toBe(1);
    expect(await worker.getByTestId('stored-coordinates').innerText()).toBe('30.2672, -97.7431');

    // A move of more than half a mile is confirmed first; cancelling keeps the stored point.
    await workerContext.setGeolocation({ latitude: 30.4, longitude: -97.74 });
    await worker.getByRole('button', { name: MSG.location.locationSetUpdate }).click();
    const confirm = worker.getByRole('dialog', { name: 'Update your job search area?' });
    await expect.poll(() => confirm.count()).toBe(1);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await worker.getByTestId('stored-coordinates').innerText()).toBe('30.2672, -97.7431');

    await worker.getByRole('button', { name: MSG.location.savePreferences }).click();
    await expect.poll(toastShown(worker, MSG.location.preferencesSaved)).toBe(1);

    // The worker waits on the dashboard, where the badge shows the location is set.
    await worker.goto(webUrl('/worker-dashboard'));
    await expect.poll(() => worker.getByTestId('location-badge').innerText()).toContain('Location set');
    const bell = worker.getByRole('button', { name: /^Notifications/ });
    await expect.poll(() => bell.getAttribute('aria-label')).toMatch(/^Notifications/);
    const unreadBefore = Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0);

    // A poster posts and pays for a job about 3 miles away.
    const posterContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    // Omar: Paula posts through the API in most other files, within the 3 payments a minute a poster may start.
    const poster = await signedInPage(posterContext, 'omar@oddjobs.test');
    await poster.goto(webUrl('/post-job'));
    await fillJobForm(poster, title);
    await poster.getByRole('button', { name: 'Post Job' }).click();
    await payByCard(poster, TEST_CARDS.succeeds);
    await poster.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);

    // The worker's page, never reloaded: the nearby toast, a higher badge, the job in the bell.
    await expect.poll(toastShown(worker, title)).toBe(1);
    await expect.poll(async () => Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0)).toBeGreaterThan(unreadBefore);
    await bell.click();
    const entry = worker.getByRole('region', { name: 'Recent notifications', exact: true }).getByRole('button', { name: new RegExp(title) });
    await expect.poll(() => entry.count()).toBe(1);
    expect(await worker.getByRole('link', { name: MSG.notifications.viewAll }).count()).toBe(1);

    // Opening it goes to the job and marks it read.
    await entry.click();
    await worker.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    await worker.goto(webUrl('/notifications'));
    const row = worker.getByRole('button', { name: new RegExp(title) });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByText('Unread:').count()).toBe(0);

    await posterContext.close();
    await workerContext.close();
  });

  it('sends signed-out visitors to sign in and other roles to /dashboard from onboarding', async () => {
    const context = await browser().newContext();
    const visitor = await context.newPage();
    await visitor.goto(webUrl('/worker-onboarding'));
    await visitor.waitForURL(/\/sign-in$/);
    const poster = await signedInPage(context, 'omar@oddjobs.test');
    await poster.goto(webUrl('/worker-onboarding'));
    await poster.waitForURL(/\/dashboard$/);
    // Wendy has a location (demo data): she starts at step 3 of 4.
    const workerContext = await browser().newContext();
    const worker = await signedInPage(workerContext, 'wendy@oddjobs.test');
    await worker.goto(webUrl('/worker-onboarding'));
    await expect.poll(() => worker.getByText('Step 3 of 4').count()).toBe(1);
    expect(await worker.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('75');
    await worker.getByRole('button', { name: 'Skip for now' }).click();
    await worker.waitForURL(/\/worker-dashboard$/);
    await context.close();
    await workerContext.close();
  });
});
