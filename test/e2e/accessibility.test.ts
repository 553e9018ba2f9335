import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../shared/api.js';
import { DEMO_DISPUTE, DEMO_JOBS } from '../../infra/local/demo-data.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, idTokenOf } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

/** The page once its first data has arrived: its heading shown and nothing left loading. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"], .skeleton, [class*="skeleton"]').count()).toBe(0);
}

/** Axe on every signed-in screen (the public ones: accounts.test.ts), as "path rule: target" lines. */
describe('the screens people reach after signing in, for keyboard and screen-reader users', () => {
  const browser = useBrowser();

  for (const viewport of [DESKTOP, PHONE]) {
    it(`has no serious or critical accessibility violation in a chat, the notifications and the admin's dashboard, users and categories at ${viewport.width} px`, async () => {
      const found: string[] = [];
      const check = async (page: Page, what: string) => {
        await settled(page);
        found.push(...(await seriousAxeViolations(page)).map((line) => `${what} ${line}`));
      };

      const worker = await signedInPage(await browser().newContext({ viewport }), 'wendy@oddjobs.test');
      await worker.goto(webUrl('/notifications'));
      await check(worker, '/notifications');
      await worker.goto(webUrl('/real-time-messages'));
      await settled(worker);
      await worker.locator('a[href^="/real-time-messages/"]').first().click();
      await worker.waitForURL(/\/real-time-messages\/[^/?]+$/);
      await worker.locator('.bubble').first().waitFor();
      await check(worker, 'a chat');
      await worker.context().close();

      const admin = await signedInPage(await browser().newContext({ viewport }), 'admin@oddjobs.test');
      for (const path of ['/admin', '/admin/users', '/admin/categories', '/notifications']) {
        await admin.goto(webUrl(path));
        await check(admin, path);
      }
      await admin.context().close();
      expect(found).toEqual([]);
    });

    it(`has no serious or critical accessibility violation on the dashboards, job pages, earnings, settings and every admin tab at ${viewport.width} px`, async () => {
      const found: string[] = [];
      const check = async (page: Page, path: string) => {
        await page.goto(webUrl(path));
        await settled(page);
        found.push(...(await seriousAxeViolations(page)).map((line) => `${path} ${line}`));
      };
      const posterJobs = (await callApi<{ items: JobSummary[] }>('GET', '/me/jobs', await idTokenOf(DEMO_DISPUTE.reporter))).items;
      const openJob = posterJobs.find((job) => job.title === DEMO_JOBS[0]!.title)!;
      const disputedJob = posterJobs.find((job) => job.title === DEMO_DISPUTE.job.title)!;

      // The worker: their dashboard, a job they may apply to, earnings, onboarding, settings.
      const worker = await signedInPage(await browser().newContext({ viewport }), DEMO_DISPUTE.worker);
      for (const path of ['/worker-dashboard', `/jobs/${openJob.id}`, '/worker-earnings', '/worker-onboarding', '/notification-settings']) await check(worker, path);
      await worker.context().close();

      // The poster: their dashboard, a job with its applicants, posting, a dispute, settings.
      const poster = await signedInPage(await browser().newContext({ viewport }), DEMO_DISPUTE.reporter);
      for (const path of ['/poster-dashboard', `/jobs/${openJob.id}`, '/post-job', `/jobs/${disputedJob.id}/dispute`, '/notification-settings']) await check(poster, path);
      await poster.context().close();

      // The admin: every tab of the dashboard and a user's page.
      const admin = await signedInPage(await browser().newContext({ viewport }), 'admin@oddjobs.test');
      await check(admin, '/admin-dashboard');
      const tabs = admin.getByRole('tab');
      for (const name of await tabs.allInnerTexts()) {
        const tab = admin.getByRole('tab', { name, exact: true });
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        await settled(admin);
        found.push(...(await seriousAxeViolations(admin)).map((line) => `admin tab ${name} ${line}`));
      }
      await check(admin, `/admin/users/${openJob.posterId}`);
      await admin.context().close();
      expect(found).toEqual([]);
    }, 300_000);
  }
});
