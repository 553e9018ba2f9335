import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { PAYOUT_OPTIONS } from '../../shared/payments.js';
import { PHONE, newAccount, seriousAxeViolations, signUpAndVerify, submitSignIn } from './accounts-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { deleteFromDashboard, fillJobForm, toastShown } from './jobs-helpers.js';
import { TEST_CARDS, connectPaymentAccount, payByCard } from './payments-helpers.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and calls take a moment on the local stack. */

const badge = (page: Page) => page.locator('#payment-settings .badge').innerText();

/** Whether a visitor finds a card titled `title` on the public landing grid (once the grid has loaded). */
async function onLandingGrid(browser: Browser, title: string): Promise<boolean> {
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto(webUrl('/'));
  await expect.poll(() => page.locator('#jobs .job-grid > li').count()).toBeGreaterThan(0);
  const found = (await page.getByRole('link', { name: title }).count()) > 0;
  await visitor.close();
  return found;
}

describe('payments in a browser', () => {
  const browser = useBrowser();

  it('connects a new poster on a phone, refuses a declined card, then posts a job paid with a good card', async () => {
    const context = await browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const poster = newAccount('poster', 'Pia Payer');
    await signUpAndVerify(page, poster);
    await submitSignIn(page, poster.email, poster.password);
    await page.waitForURL(/\/poster-dashboard/);

    // Without a payment account, posting points to the payment settings.
    await page.goto(webUrl('/post-job'));
    await expect.poll(() => page.getByText(MSG.payments.accountNeededToPost).count()).toBe(1);
    await page.getByRole('link', { name: 'Set Up Payments' }).click();
    await page.waitForURL(/\/profile#payment-settings$/);
    await expect.poll(() => badge(page)).toBe('Not Connected');

    // On a phone Stripe's onboarding replaces the app, and comes back to the poster dashboard.
    await connectPaymentAccount(page);
    await expect.poll(toastShown(page, MSG.payments.setupReturned)).toBe(1);
    await page.goto(webUrl('/profile'));
    await expect.poll(() => badge(page)).toBe('Connected & Ready');
    expect(await page.getByText(MSG.payments.setupComplete).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Connect Stripe Account' }).count()).toBe(0);

    // A declined card: the provider's message, the card step stays, and the job is not posted.
    const title = `Paint a garden fence ${randomUUID().slice(0, 6)}`;
    await page.goto(webUrl('/post-job'));
    expect(await page.getByText(MSG.payments.accountNeededToPost).count()).toBe(0);
    await fillJobForm(page, title);
    await page.getByRole('button', { name: 'Post Job' }).click();
    await expect.poll(() => page.getByRole('heading', { name: `Pay to post “${title}”` }).count()).toBe(1);
    // $60.00 + the $8.40 fee.
    expect(await page.getByRole('button', { name: 'Pay $68.40' }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await payByCard(page, TEST_CARDS.declined);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/post-job');
    expect(await onLandingGrid(browser(), title)).toBe(false);

    // Another card on the same step pays, and the job opens for everyone.
    await payByCard(page, TEST_CARDS.succeeds);
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    await expect.poll(toastShown(page, MSG.jobs.posted)).toBe(1);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: title }).count()).toBe(1);
    expect(await page.locator('.badge--open').innerText()).toBe('Open');
    expect(await onLandingGrid(browser(), title)).toBe(true);

    // Deleting the open job refunds it, and leaves the grid as it was for the other tests.
    await deleteFromDashboard(page, title);
    await context.close();
  });

  it('opens the setup in a new window on desktop, returns a set-up poster to the dashboard; an unpaid draft never reaches the grid', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const poster = newAccount('poster', 'Dev Desktop');
    await signUpAndVerify(page, poster);
    await submitSignIn(page, poster.email, poster.password);
    await page.waitForURL(/\/poster-dashboard/);

    const returned = await connectPaymentAccount(page);
    expect(returned).not.toBe(page);
    await expect.poll(toastShown(page, MSG.payments.setupOpenedInNewWindow)).toBe(1);
    await returned.close();
    await page.reload();
    await expect.poll(() => badge(page)).toBe('Connected & Ready');
    // Back on the profile with the setup complete, a poster goes on to the dashboard after 2 s.
    await page.goto(webUrl('/profile?stripe_setup=success'));
    await page.waitForURL(/\/profile$/);
    await page.waitForURL(/\/poster-dashboard$/, { timeout: 10_000 });

    const title = `Assemble a bookshelf ${randomUUID().slice(0, 6)}`;
    await page.goto(webUrl('/post-job'));
    await fillJobForm(page, title);
    await page.getByRole('button', { name: 'Post Job' }).click();
    await payByCard(page, TEST_CARDS.declined);
    await expect.poll(() => page.getByText('Your card was declined.').count()).toBe(1);
    expect(await onLandingGrid(browser(), title)).toBe(false);

    // The dashboard's 'Complete payment' opens the draft's page on its card step: asked once, not twice.
    await page.goto(webUrl('/poster-dashboard'));
    await page.getByRole('link', { name: `Complete payment for ${title}` }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    await page.getByLabel('Card number').waitFor();
    expect(await page.getByRole('button', { name: 'Complete payment', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Pay \$/ }).count()).toBe(1);
    await context.close();
  });

  it("shows a demo worker's earnings with the fast payout options", async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedInPage(context, 'wendy@oddjobs.test');
    await page.goto(webUrl('/worker-earnings'));
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'My Earnings' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Payout Options' }).count()).toBe(1);
    for (const option of PAYOUT_OPTIONS) {
      // Exactly: "Your instant payouts" (the history, once Wendy cashed out) contains "Instant Payout".
      expect(await page.getByRole('heading', { level: 3, name: option.name, exact: true }).count()).toBe(1);
      expect(await page.getByText(option.timing, { exact: true }).count()).toBe(1);
    }
    expect(await page.getByText('Total Earned').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
