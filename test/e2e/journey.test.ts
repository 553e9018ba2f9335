import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { readCodeFromMailbox, useBrowser, webUrl } from './browser.js';
import { deleteFromDashboard } from './jobs-helpers.js';
import { TEST_CARDS, connectPaymentAccount, payByCard } from './payments-helpers.js';

describe('the walking-skeleton journey in a browser', () => {
  const browser = useBrowser();

  it('signs up a poster, verifies by the mailed code, signs in, posts a job and finds it on the landing grid', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const email = `poster-${randomUUID().slice(0, 8)}@example.com`;
    const title = `Hang three shelves ${randomUUID().slice(0, 4)}`;

    // The public landing page shows open jobs (the newest first: which demo jobs are still on
    // the first page depends on what the suite's other files posted before this one).
    await page.goto(webUrl('/'));
    await expect.poll(() => page.locator('#jobs').getByRole('article').count()).toBeGreaterThan(0);

    // Sign up as a poster.
    await page.getByRole('link', { name: 'Need Help With Tasks' }).click();
    await page.waitForURL(/\/sign-up/);
    await page.getByLabel('Full Name').fill('Riley Poster');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText(MSG.auth.passwordTooShort).count()).toBeGreaterThan(0);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password-1');
    await page.getByLabel('Confirm Password').fill('a-good-password-1');
    expect(await page.getByLabel('Account Type').inputValue()).toBe('poster');
    await page.getByRole('button', { name: 'Create Account' }).click();

    // Verify with the code from the local mailbox.
    await page.waitForURL(/\/verify-email/);
    await expect.poll(() => page.getByRole('heading', { name: 'Check Your Email' }).count()).toBe(1);
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    const mailbox = await context.newPage();
    const code = await readCodeFromMailbox(mailbox, email);
    await mailbox.close();
    await page.getByLabel('Verification Code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();

    // Sign in: posters land on their dashboard.
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/poster-dashboard/);

    // Connect a payment account: Stripe's (simulated) onboarding opens in a new window.
    const onboarding = await connectPaymentAccount(page);
    await onboarding.close();

    // Post a job.
    await page.goto(webUrl('/post-job'));
    await page.getByLabel('Job Title').fill(title);
    await page.getByLabel('Description').fill('Three floating shelves in the living room; anchors and level provided.');
    await page.getByLabel('Street Address').fill('77 Rainey St');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').fill('TX');
    await page.getByLabel('Payment ($)').fill('80');
    await page.getByLabel('Category').selectOption('Handyman');
    await page.getByLabel('Due Date').fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel('Duration').fill('2 hours');
    await page.getByLabel('Skills (one per line)').fill('Drilling\nLevelling');
    // The fee and total are shown before submitting: $80.00 + 14% = $91.20.
    await expect.poll(() => page.getByText('$91.20').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Post Job' }).click();
    // ... and pay for it by card.
    await payByCard(page, TEST_CARDS.succeeds);

    // The detail page: city and state only.
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: title }).count()).toBe(1);
    expect(await page.getByText('Austin, TX').count()).toBeGreaterThan(0);

    // A visitor sees it on the public landing grid.
    const visitor = await browser().newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(webUrl('/'));
    await expect.poll(() => visitorPage.getByRole('link', { name: new RegExp(title) }).count()).toBeGreaterThan(0);
    expect(await visitorPage.getByText('77 Rainey St').count()).toBe(0);
    await visitor.close();

    // Deleting the open job refunds it, and leaves the demo grid as it was for the other tests.
    await deleteFromDashboard(page, title);
    await context.close();
  });
});
