import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

/** The page once its first data has arrived: its heading shown and nothing left loading. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"], .skeleton, [class*="skeleton"]').count()).toBe(0);
}

/** Axe on each signed-in screen the audit of issue 48 found a serious violation on, as "path rule: target" lines. */
describe('the screens people reach most after signing in, for keyboard and screen-reader users', () => {
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
  }
});
