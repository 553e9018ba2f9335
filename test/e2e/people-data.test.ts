import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ConversationView, DataExport, JobSummary, Page as ResultPage } from '../../shared/api.js';
import { formatCents, moneyPeriodOf, type MoneyOverview } from '../../shared/money.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

describe('people and their data', () => {
  const browser = useBrowser();

  it("'Download my data' saves the worker's own messages and none of the poster's", async () => {
    const [workerToken, posterToken] = await Promise.all([idTokenOf('marco@oddjobs.test'), idTokenOf('paula@oddjobs.test')]);
    // An open job of Paula's whose chat with Marco is not blocked (the demo data blocks one).
    const paula = await callApi<{ id: string }>('GET', '/me', posterToken);
    const open = await callApi<ResultPage<JobSummary>>('GET', '/jobs', workerToken);
    let conversation: ConversationView | undefined;
    for (const candidate of open.items.filter((item) => item.posterId === paula.id)) {
      conversation = await callApi<ConversationView>('POST', '/conversations', workerToken, { jobId: candidate.id });
      if (!conversation.isBlocked) break;
    }
    const { fullAddress } = await callApi<{ fullAddress: string }>('GET', `/jobs/${conversation!.jobId}`, posterToken);
    const [own, others] = [`Marco asks ${randomUUID()}`, `Paula's private answer ${randomUUID()}`];
    await callApi('POST', `/conversations/${conversation!.id}/messages`, workerToken, { id: randomUUID(), content: own });
    await callApi('POST', `/conversations/${conversation!.id}/messages`, posterToken, { id: randomUUID(), content: others });

    const context = await browser().newContext({ acceptDownloads: true, viewport: { width: 375, height: 812 } });
    const page = await signedInPage(context, 'marco@oddjobs.test');
    await page.goto(webUrl('/profile'));
    // Firefox follows a link clicked only while it is in the document: record where the app's link was when clicked.
    await page.evaluate(() => {
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        (window as unknown as { clickedInDocument?: boolean }).clickedInDocument = this.isConnected;
        click.call(this);
      };
    });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(await page.evaluate(() => (window as unknown as { clickedInDocument?: boolean }).clickedInDocument)).toBe(true);
    expect(await page.locator('a[download]').count()).toBe(0);
    const text = await readFile(await download.path(), 'utf8');
    const data = JSON.parse(text) as DataExport;

    expect(download.suggestedFilename()).toMatch(/^oddjobs-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(data.profile).toMatchObject({ email: 'marco@oddjobs.test', name: 'Marco Diaz' });
    expect(data.messagesSent.map((message) => message.content)).toContain(own);
    expect(text).not.toContain(others);
    expect(text).not.toContain(fullAddress); // the poster's street address
    await expect.poll(() => page.locator('.toast', { hasText: 'Your data has been downloaded' }).count()).toBe(1);
    await context.close();
  });

  it("the admin's Transactions tab shows the month's money overview from the counters", async () => {
    const adminToken = await idTokenOf('admin@oddjobs.test');
    // A payment taken now: the month has money in it, whatever the demo data holds.
    await postPaidJob(await idTokenOf('omar@oddjobs.test'), `Overview ${randomUUID().slice(0, 8)}`);
    const month = await callApi<MoneyOverview>('GET', `/admin/payments/overview?kind=month&period=${moneyPeriodOf('month', new Date().toISOString())}`, adminToken);

    const context = await browser().newContext({ viewport: { width: 375, height: 812 } });
    const admin = await signedInPage(context, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    const overview = admin.getByRole('region', { name: 'Money overview', exact: true });
    const figure = (label: string) => overview.locator('.stat-card', { has: admin.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
    expect(month.gross).toBeGreaterThan(0);
    await expect.poll(() => figure('Gross').innerText()).toBe(formatCents(month.gross));
    expect(await figure('Site profit').innerText()).toBe(formatCents(month.siteProfit));
    expect(await figure('Worker payouts').innerText()).toBe(formatCents(month.workerPayouts));

    // A day with no payments: zeros, and no margin.
    await overview.getByLabel('Period').selectOption('day');
    await overview.getByLabel('Day (UTC)').fill('2001-01-01');
    await expect.poll(() => figure('Gross').innerText()).toBe('$0.00');
    expect(await figure('Margin').innerText()).toBe('—');
    await context.close();
  });
});
