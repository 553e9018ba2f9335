import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { DESKTOP, newAccount, signUpAndVerify, submitSignIn } from './accounts-helpers.js';
import { callApi, completedByWendy, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and pushes take a moment on the local stack. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('dashboards, reviews and the loose ends of the job loop in a browser', () => {
  const browser = useBrowser();

  it("shows the worker their declined job with the poster's reason, and the poster a job waiting for release, live", async () => {
    const title = `Regrout a shower ${randomUUID().slice(0, 6)}`;
    const reason = 'Two corners are still missing grout.';
    const job = await completedByWendy(title);

    // One context per user: a context's tabs share one session.
    const contexts = [await browser().newContext({ viewport: DESKTOP }), await browser().newContext({ viewport: DESKTOP })];
    const [wendy, paula] = [await signedInPage(contexts[0]!, 'wendy@oddjobs.test'), await signedInPage(contexts[1]!, 'paula@oddjobs.test')];
    // /dashboard sends each role to its own dashboard.
    await paula.goto(webUrl('/dashboard'));
    await paula.waitForURL(/\/poster-dashboard$/);
    // Completed jobs wait for her first, each with the way to release the payment.
    const waiting = paula.locator('.waiting-for-release');
    await eventually(() => waiting.getByRole('listitem').filter({ hasText: title }).count()).toBe(1);
    expect(await waiting.getByRole('link', { name: `Review & Release ${title}` }).count()).toBe(1);

    await wendy.goto(webUrl('/dashboard'));
    await wendy.waitForURL(/\/worker-dashboard$/);
    const active = region(wendy, 'My Active Jobs');
    await eventually(() => active.getByText(MSG.dashboard.waitingForRelease).count()).toBeGreaterThan(0);
    for (const tile of ['Available Jobs', 'Active Jobs', 'Completed Jobs', 'Total Earnings']) {
      expect(await wendy.getByRole('term').filter({ hasText: tile }).count()).toBe(1);
    }

    // Paula declines with a reason: Wendy's dashboard shows it without a reload, with the way to try again.
    const paulaToken = await idTokenOf('paula@oddjobs.test');
    await callApi('POST', `/jobs/${job.id}/decline-completion`, paulaToken, { reason });
    const item = active.getByRole('listitem').filter({ hasText: title });
    await eventually(() => item.getByText(MSG.dashboard.declinedCompletion(reason)).count()).toBe(1);
    expect(await item.getByRole('button', { name: /^Mark as Completed/ }).count()).toBe(1);
    await eventually(() => waiting.getByRole('listitem').filter({ hasText: title }).count()).toBe(0);

    // The job page tells her too.
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    await eventually(() => wendy.getByText(MSG.dashboard.declinedCompletion(reason)).count()).toBe(1);

    // Marking it completed again from the dashboard puts it back in Paula's waiting list, live.
    await wendy.goto(webUrl('/worker-dashboard'));
    await item.getByRole('button', { name: /^Mark as Completed/ }).click();
    // The confirmation names the poster and the amount.
    const confirm = wendy.getByRole('dialog', { name: 'Mark this job as completed?' });
    await eventually(() => confirm.getByText(`Paula Poster is asked to review the work and release your ${formatCents(job.payment)}.`).count()).toBe(1);
    await confirm.getByRole('button', { name: 'Mark completed' }).click();
    await eventually(toastShown(wendy, MSG.applications.markedCompleted)).toBe(1);
    await eventually(() => item.getByText(MSG.dashboard.waitingForRelease).count()).toBe(1);
    await eventually(() => waiting.getByRole('listitem').filter({ hasText: title }).count()).toBe(1);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it("lists reviews on the reviewee's public profile, reached from the job page, and live on their dashboard", async () => {
    const title = `Paint a mailbox ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    const paulaToken = await idTokenOf('paula@oddjobs.test');
    await callApi('POST', `/jobs/${job.id}/release-payment`, paulaToken, {});

    const context = await browser().newContext({ viewport: DESKTOP });
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    await wendy.goto(webUrl('/worker-dashboard'));
    const mine = region(wendy, 'Reviews About You');
    await eventually(() => mine.locator('.rating').count()).toBe(1);

    const comment = `Crisp lines on ${title}.`;
    // Wendy's review first: Paula's, the second, publishes both (double-blind).
    await callApi('POST', `/jobs/${job.id}/reviews`, await idTokenOf('wendy@oddjobs.test'), { rating: 5 });
    await callApi('POST', `/jobs/${job.id}/reviews`, paulaToken, { rating: 4, comment });
    await eventually(() => mine.getByText(comment).count()).toBe(1);
    const completed = region(wendy, 'Completed Jobs');
    expect(await completed.getByRole('link', { name: title }).count()).toBe(1);

    // Marco opens the job and follows the assigned worker's name to her public profile.
    const marcoContext = await browser().newContext({ viewport: DESKTOP });
    const marco = await signedInPage(marcoContext, 'marco@oddjobs.test');
    await marco.goto(webUrl(`/jobs/${job.id}`));
    const workerCard = marco.getByRole('complementary', { name: 'About this job' }).getByRole('region', { name: 'Assigned Worker', exact: true });
    await eventually(() => workerCard.getByRole('link', { name: 'Wendy Worker' }).count()).toBe(1);
    await workerCard.getByRole('link', { name: 'Wendy Worker' }).click();
    await marco.waitForURL(/\/profiles\//);
    const reviews = region(marco, 'Reviews');
    const entry = reviews.getByRole('listitem').filter({ hasText: comment });
    await eventually(() => entry.count()).toBe(1);
    expect(await entry.getByRole('link', { name: 'Paula Poster' }).count()).toBe(1);
    expect(await entry.getByRole('link', { name: title }).count()).toBe(1);
    expect(await entry.getByText('4 out of 5').count()).toBe(1);
    expect(await entry.locator('time').count()).toBe(1);
    const wendyProfile = await callApi<OwnProfile>('GET', '/me', await idTokenOf('wendy@oddjobs.test'));
    expect(await reviews.locator('.rating__average').innerText()).toBe(wendyProfile.rating?.toFixed(1));
    await Promise.all([context.close(), marcoContext.close()]);
  });

  it("lands a worker on the open jobs of their dashboard from every Find Jobs, not on the page's top", async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 700 } });
    const page = await signedInPage(context, 'wendy@oddjobs.test');
    const availableJobs = page.locator('#available-jobs');
    /** The board's section starts in the window's upper half (the sticky header takes the top), and the page was scrolled to it. */
    const onTheJobs = () =>
      availableJobs.evaluate((section) => {
        const top = section.getBoundingClientRect().top;
        return top >= 0 && top < window.innerHeight / 2 && window.scrollY > 0;
      });

    // The header's link, from another page.
    await page.goto(webUrl('/profile'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Find Jobs' }).click();
    await page.waitForURL(/\/worker-dashboard#available-jobs$/);
    await eventually(onTheJobs).toBe(true);

    // The dashboard's own Find Jobs button, after scrolling back to the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.dashboard__actions').getByRole('link', { name: 'Find Jobs' }).click();
    await eventually(onTheJobs).toBe(true);

    // The mobile menu's, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(webUrl('/profile'));
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Find Jobs' }).click();
    await page.waitForURL(/\/worker-dashboard#available-jobs$/);
    await eventually(onTheJobs).toBe(true);
    await context.close();
  });

  it('does not preselect the admin option on /sign-up?role=admin once an admin exists', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(webUrl('/sign-up?role=admin'));
    const accountType = page.getByLabel('Account Type');
    await eventually(() => page.getByRole('option', { name: MSG.nav.adminUnavailable }).count()).toBe(1);
    expect(await accountType.inputValue()).toBe('worker');
    await context.close();
  });

  it('sends a worker without a payment account to the payment settings, and shows the account connected in the first tab on return', async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const worker = newAccount('worker', 'Nia Newcomer');
    await signUpAndVerify(page, worker);
    await submitSignIn(page, worker.email, worker.password);
    await page.waitForURL(/\/worker-dashboard/);

    // Applying is refused without a payment account: the notice links to the payment settings.
    const title = `Sweep a porch ${randomUUID().slice(0, 6)}`;
    const job = await postPaidJob(await idTokenOf('paula@oddjobs.test'), title);
    await page.goto(webUrl(`/jobs/${job.id}`));
    await eventually(() => page.getByText(MSG.payments.accountNeededToApply).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Apply', exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Set Up Payments' }).click();
    await page.waitForURL(/\/profile#payment-settings$/);

    // On desktop the onboarding opens in a new window and returns there; this tab follows without a reload.
    const badge = page.locator('#payment-settings .badge');
    await eventually(() => badge.innerText()).toBe('Not Connected');
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Connect Stripe Account' }).click();
    const onboarding = await opened;
    await onboarding.waitForURL(/\/onboarding\//);
    await onboarding.getByRole('button', { name: 'Complete setup', exact: true }).click();
    await onboarding.waitForURL(/\/worker-dashboard$/);
    await eventually(() => badge.innerText()).toBe('Connected & Ready');

    // And the job page now offers the form.
    await page.goto(webUrl(`/jobs/${job.id}`));
    await eventually(() => page.getByRole('button', { name: 'Apply', exact: true }).count()).toBe(1);
    await context.close();
  });

  it('fits every signed-in page in a 375 px screen, for a worker and a poster, with the loose ends of the screens in place', async () => {
    const job = await completedByWendy(`Oil a squeaky door ${randomUUID().slice(0, 6)}`);
    const narrow = { width: 375, height: 812 };
    const widthOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

    for (const [email, dashboard] of [
      ['wendy@oddjobs.test', '/worker-dashboard'],
      ['paula@oddjobs.test', '/poster-dashboard'],
    ] as const) {
      const context = await browser().newContext({ viewport: narrow });
      // Hold back the header's signed-in controls: meanwhile Messages is there, and the header keeps its width.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await context.route(/SignedInControls-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const page = await context.newPage();
      await page.goto(webUrl('/sign-in'));
      await submitSignIn(page, email, DEMO_PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
      await eventually(() => page.getByRole('link', { name: 'Messages' }).isVisible()).toBe(true);
      expect(await widthOf(page)).toBeLessThanOrEqual(375);
      release();
      await eventually(() => page.getByRole('button', { name: /^Account menu for / }).isVisible()).toBe(true);

      for (const path of ['/', dashboard, `/jobs/${job.id}`, '/real-time-messages', '/notifications', '/profile']) {
        await page.goto(webUrl(path));
        await page.waitForLoadState('networkidle');
        expect(await widthOf(page), `${email} ${path}`).toBeLessThanOrEqual(375);
      }
      if (dashboard === '/worker-dashboard') {
        // The worker's success rate (spec 2 §9): a share of their jobs, in percent.
        await page.goto(webUrl(dashboard));
        await eventually(() => page.getByText('Success Rate', { exact: true }).isVisible()).toBe(true);
        await page.goto(webUrl('/profile'));
        await eventually(() => page.getByRole('definition').filter({ hasText: /^\d+%$/ }).count()).toBe(1);
      }
      // A conversation too, when the user has one.
      await page.goto(webUrl('/real-time-messages'));
      const conversation = page.locator('a[href^="/real-time-messages/"]').first();
      if (await conversation.count()) {
        await conversation.click();
        await page.waitForLoadState('networkidle');
        expect(await widthOf(page), `${email} chat`).toBeLessThanOrEqual(375);
      }

      // The job page leads both parties of a completed job to its Dispute Center (spec 2 §5).
      await page.goto(webUrl(`/jobs/${job.id}`));
      await page.getByRole('link', { name: MSG.disputes.openDisputeCenter }).click();
      await page.waitForURL(new RegExp(`/jobs/${job.id}/dispute$`));
      await eventually(() => page.getByRole('heading', { name: MSG.disputes.howDisputesWork }).isVisible()).toBe(true);
      // The jobs grid tells a signed-in user where their payment setup stands (spec 1 §2, §4 badge texts).
      await page.goto(webUrl('/'));
      await eventually(() => page.getByRole('region', { name: 'Payment Status', exact: true }).getByText(/^(Not Connected|Setup In Progress|Connected & Ready)$/).isVisible()).toBe(true);
      await context.close();
    }
  });
});

