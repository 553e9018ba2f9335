import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { DESKTOP } from './accounts-helpers.js';
import { idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { deleteFromDashboard, fillJobForm, toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signedInPage } from './sign-in.js';

/** The price on the card titled `title` within `scope` (a page or a section of it). */
const cardPrice = (page: Page, scope: string, title: string) => () =>
  page.locator(`${scope} .job-card`).filter({ hasText: title }).locator('.job-card__price').innerText().catch(() => '');

describe('money each side understands, in a browser', () => {
  const browser = useBrowser();

  it('shows a worker what they earn, the poster what they pay with the fee, and anyone else the payment', async () => {
    // One word only this job has, so a search finds its card among everyone's jobs.
    const word = `varnish${randomUUID().slice(0, 6)}`;
    const title = `Oil a bench ${word}`;
    const job = await postPaidJob(await idTokenOf('paula@oddjobs.test'), title);
    const payment = formatCents(job.payment);
    const earn = `You earn ${payment}`;
    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: DESKTOP })));
    const [wendy, paula] = [await signedInPage(contexts[0]!, 'wendy@oddjobs.test'), await signedInPage(contexts[1]!, 'paula@oddjobs.test')];
    const visitor = await contexts[2]!.newPage();

    // A visitor, on the landing grid: the payment a worker would earn, not the poster's total.
    await visitor.goto(webUrl(`/?q=${word}`));
    await expect.poll(cardPrice(visitor, '#jobs', title)).toBe(payment);

    // The worker: browsing, on their dashboard's Available Jobs, on the job page, in Saved Jobs.
    await wendy.goto(webUrl(`/?q=${word}`));
    await expect.poll(cardPrice(wendy, '#jobs', title)).toBe(earn);
    await wendy.goto(webUrl(`/worker-dashboard?q=${word}`));
    await expect.poll(cardPrice(wendy, '#available-jobs', title)).toBe(earn);
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(() => wendy.locator('.job-detail__price').innerText().catch(() => '')).toBe(earn);
    await wendy.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => wendy.getByRole('button', { name: 'Saved', exact: true }).count()).toBe(1);
    await wendy.goto(webUrl('/worker-dashboard#saved-jobs'));
    const saved = wendy.locator('.saved-job').filter({ hasText: title });
    await expect.poll(() => saved.locator('.saved-job__price').innerText().catch(() => '')).toBe(earn);
    expect(await wendy.getByText(formatCents(job.postedAmount)).count()).toBe(0);

    // The poster: what they pay, and how it splits.
    const split = `${payment} payment + ${formatCents(job.platformFee)} service fee`;
    await paula.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(() => paula.locator('.job-detail__price').innerText().catch(() => '')).toBe(`You pay ${formatCents(job.postedAmount)}\n${split}`);
    await paula.goto(webUrl('/poster-dashboard'));
    await expect.poll(cardPrice(paula, '#open-jobs', title)).toBe(`You pay ${formatCents(job.postedAmount)}\n${split}`);

    // Deleting the open job refunds it, and leaves the grid as it was for the other tests.
    await deleteFromDashboard(paula, title);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('resumes a draft left at the card step from the dashboard, with the same payment, and opens the job once paid', async () => {
    const title = `Hang picture frames ${randomUUID().slice(0, 6)}`;
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await signedInPage(context, 'paula@oddjobs.test');
    await page.goto(webUrl('/post-job'));
    await fillJobForm(page, title);
    await page.getByRole('button', { name: 'Post Job' }).click();
    await expect.poll(() => page.getByRole('heading', { name: `Pay to post “${title}”` }).count()).toBe(1);

    // She leaves at the card step; the dashboard brings her back to it.
    await page.goto(webUrl('/poster-dashboard'));
    const resume = page.getByRole('link', { name: `Complete payment for ${title}` });
    await expect.poll(() => resume.count()).toBe(1);
    await resume.click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    // Straight to the card step: the job page does not ask a second time (issue 36).
    await expect.poll(() => page.getByRole('heading', { name: `Pay to post “${title}”` }).count()).toBe(1);
    // $60.00 + the $8.40 fee, as when it was posted.
    expect(await page.getByRole('button', { name: 'Pay $68.40' }).count()).toBe(1);
    await payByCard(page, TEST_CARDS.succeeds);
    await expect.poll(toastShown(page, MSG.jobs.posted)).toBe(1);
    await expect.poll(() => page.locator('.badge--open').innerText().catch(() => '')).toBe('Open');
    expect(await page.getByRole('button', { name: 'Complete payment' }).count()).toBe(0);

    await deleteFromDashboard(page, title);
    await context.close();
  });
});
