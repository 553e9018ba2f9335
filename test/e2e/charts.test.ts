import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MarketAnalytics } from '../../shared/admin.js';
import type { Earnings } from '../../shared/api.js';
import { formatCents, type MoneyPeriodKind, type MoneySeries } from '../../shared/money.js';
import { formatCalendarDay, formatMonth } from '../../web/src/lib/format.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, idTokenOf } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

/** The chart module's chunk (web/src/lib/components/SeriesChart.tsx, recharts with it). */
const CHART_CHUNK = /\/assets\/SeriesChart-[^/]+\.js$/;

/** The chunks of the chart library a page asked for, from the moment this is called. */
function chartChunksAskedFor(page: Page): () => string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (CHART_CHUNK.test(new URL(request.url()).pathname)) asked.push(request.url());
  });
  return () => asked;
}

/**
 * A chart's text alternative as a person reaches it: "Show the figures as a table" opened, then
 * every row of the table, its cells' texts. The picture is drawn (the chart library loaded) and
 * fits the page's width.
 */
async function figuresOf(page: Page, chart: Locator): Promise<string[][]> {
  await chart.locator('.chart__plot svg.recharts-surface').waitFor();
  // Open once: it stays open while the chart shows another window.
  if (!(await chart.locator('details').evaluate((details) => (details as HTMLDetailsElement).open))) await chart.getByText('Show the figures as a table').click();
  const table = chart.getByRole('table');
  await table.waitFor();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => (cell as HTMLElement).innerText.trim())));
  const [plotWidth, pageWidth, viewportWidth] = await page.evaluate(() => [
    document.querySelector('.chart__plot svg.recharts-surface')!.getBoundingClientRect().width,
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(plotWidth).toBeGreaterThan(200);
  expect(plotWidth).toBeLessThanOrEqual(viewportWidth);
  expect(pageWidth).toBeLessThanOrEqual(viewportWidth);
  // Readable at a phone's width: the axis keeps to a few of its 12 or 30 periods' ticks.
  expect(await chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBeLessThanOrEqual(viewportWidth < 500 ? 8 : 16);
  return rows;
}

/** The figure whose caption names it. */
const chartNamed = (page: Page, caption: RegExp) => page.getByRole('figure', { name: caption });

describe('the charts and their text alternatives (issue 48)', () => {
  const browser = useBrowser();

  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows the admin's money over the last 12 months and 30 days, with the figures the API answers, at ${viewport.width} px`, async () => {
      const admin = await signedInPage(await browser().newContext({ viewport }), 'admin@oddjobs.test');
      const chartChunks = chartChunksAskedFor(admin);
      const token = await idTokenOf('admin@oddjobs.test');
      const expected = async (kind: MoneyPeriodKind) =>
        (await callApi<MoneySeries>('GET', `/admin/payments/overview/series?kind=${kind}`, token)).periods.map((period) => [
          kind === 'day' ? formatCalendarDay(period.period) : formatMonth(period.period),
          ...[period.gross, period.platformFees, period.refundedAmount, period.workerPayouts].map(formatCents),
        ]);

      await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
      const monthly = await figuresOf(admin, chartNamed(admin, /over the last 12 months/));
      expect(monthly).toEqual(await expected('month'));

      await admin.getByLabel('Period').selectOption('day');
      const daily = await figuresOf(admin, chartNamed(admin, /over the last 30 days/));
      expect(daily).toEqual(await expected('day'));
      // The demo's payments were taken today: today's row is the overview card's day.
      const card = (label: string) => admin.locator('.money-overview__figures .stat-card', { has: admin.getByText(label, { exact: true }) }).locator('dd');
      expect(daily.at(-1)!.slice(1)).toEqual([await card('Gross').innerText(), await card('Platform fees').innerText(), (await card('Refunds').innerText()).replace(/ \(\d+\)$/, ''), await card('Worker payouts').innerText()]);
      expect(daily.at(-1)![1]).not.toBe('$0.00');

      expect(chartChunks()).toHaveLength(1);
      expect(await seriousAxeViolations(admin)).toEqual([]);
      await admin.context().close();
    });

    it(`shows the jobs posted per day in the market analytics, with the figures the API answers, at ${viewport.width} px`, async () => {
      const admin = await signedInPage(await browser().newContext({ viewport }), 'admin@oddjobs.test');
      const analytics = await callApi<MarketAnalytics>('GET', '/admin/markets', await idTokenOf('admin@oddjobs.test'));
      await admin.goto(webUrl('/admin-dashboard?tab=analytics'));
      const days = await figuresOf(admin, chartNamed(admin, /Jobs posted per day/));
      expect(days).toEqual(analytics.days.map((day) => [formatCalendarDay(day.day), String(day.jobs)]));
      // The demo's jobs were all posted today.
      expect(Number(days.at(-1)![1])).toBeGreaterThan(0);
      expect(await seriousAxeViolations(admin)).toEqual([]);
      await admin.context().close();
    });

    it(`plots the markets in the Locations tab beside the table of the figures it plots, at ${viewport.width} px`, async () => {
      const admin = await signedInPage(await browser().newContext({ viewport }), 'admin@oddjobs.test');
      const { items } = await callApi<MarketAnalytics>('GET', '/admin/markets', await idTokenOf('admin@oddjobs.test'));
      await admin.goto(webUrl('/admin-dashboard?tab=locations'));
      const plot = admin.getByRole('img', { name: 'Open jobs and jobs of the last 30 days per market' });
      await plot.waitFor();
      // Its text alternative is the markets' table below it: every plotted market's figures.
      const table = admin.getByRole('table', { name: 'Markets by open jobs' });
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim())));
      expect(rows).toEqual(items.map((market) => [market.market, market.openJobs, market.jobsLast30Days, market.workersWithLocation, market.workersWithAlerts].map(String)));
      expect(await plot.locator('g').count()).toBe(items.length);
      expect(await seriousAxeViolations(admin)).toEqual([]);
      await admin.context().close();
    });

    it(`shows a worker's earnings by week on My Earnings, adding up to their total, and no chart library elsewhere, at ${viewport.width} px`, async () => {
      const worker = await signedInPage(await browser().newContext({ viewport }), 'wendy@oddjobs.test');
      const chartChunks = chartChunksAskedFor(worker);
      await worker.goto(webUrl('/worker-dashboard'));
      await worker.getByRole('heading', { level: 1 }).first().waitFor();
      await worker.waitForLoadState('networkidle');
      expect(chartChunks()).toEqual([]);

      const earnings = await callApi<Earnings>('GET', '/me/earnings', await idTokenOf('wendy@oddjobs.test'));
      await worker.goto(webUrl('/worker-earnings'));
      const weeks = await figuresOf(worker, chartNamed(worker, /What you earned each week/));
      expect(weeks).toEqual(earnings.weeks.map((week) => [formatCalendarDay(week.week), formatCents(week.payments), formatCents(week.tips)]));
      // Every demo payment is recent: the weeks hold all that the worker earned.
      expect(earnings.weeks.reduce((sum, week) => sum + week.payments + week.tips, 0)).toBe(earnings.totalEarned);
      expect(earnings.totalEarned).toBeGreaterThan(0);
      expect(chartChunks()).toHaveLength(1);
      expect(await seriousAxeViolations(worker)).toEqual([]);
      await worker.context().close();
    });
  }
});
