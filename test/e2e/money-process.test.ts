import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { disputeResolutionMessage } from '../../shared/disputes.js';
import { MSG } from '../../shared/messages.js';
import { formatCents, formatUsdAmount } from '../../shared/money.js';
import { DESKTOP, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, completedByWendy, idTokenOf } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** 375 px: the narrowest phone the layouts are made for. */
const NARROW = { width: 375, height: 812 } as const;

/** How many elements show exactly `text` (a notice, not a notification quoting it in other words). */
const shown = (page: Page, text: string) => () => page.getByText(text, { exact: true }).count();

/** The countdown's opening words for `viewer`, whatever time is left. */
const countdownOpening = (viewer: 'poster' | 'worker') => MSG.payments.autoReleaseCountdown(viewer, '').split(' in ')[0]!;
const countdownShown = (page: Page, viewer: 'poster' | 'worker') => () => page.locator('.auto-release', { hasText: countdownOpening(viewer) }).count();

/** Opens the dashboard's disputes panel on the dispute about `title`. */
async function openDisputeThread(page: Page, dashboard: string, title: string): Promise<void> {
  await page.goto(webUrl(dashboard));
  const toggle = page.getByRole('region', { name: 'Disputes', exact: true }).getByRole('button', { name: new RegExp(title) });
  await expect.poll(() => toggle.count()).toBe(1);
  await toggle.click();
  await expect.poll(() => page.getByRole('list', { name: 'Dispute messages' }).count()).toBe(1);
}

describe('the money process in a browser', () => {
  const browser = useBrowser();

  it('the admin resolves a dispute with a split, confirmed with the amounts, and both parties see them', async () => {
    const title = `Split the fence job ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    await callApi('POST', `/jobs/${job.id}/dispute`, await idTokenOf('wendy@oddjobs.test'), { type: 'quality', description: 'Half the fence was painted; we disagree on the rest.' });
    const toWorker = 5000;
    const refunded = job.postedAmount - toWorker;
    const outcome = disputeResolutionMessage(title, { decision: 'split', toWorker, refunded });

    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: DESKTOP })));
    const [admin, wendy, paula] = await Promise.all([
      signedInPage(contexts[0]!, 'admin@oddjobs.test'),
      signedInPage(contexts[1]!, 'wendy@oddjobs.test'),
      signedInPage(contexts[2]!, 'paula@oddjobs.test'),
    ]);

    await admin.goto(webUrl('/admin-dashboard?tab=disputes'));
    const row = admin.getByRole('row', { name: new RegExp(title) });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Open' }).click();
    await admin.getByLabel('Resolution', { exact: true }).fill('Half the work was done: the payment is split.');
    // The money held for the completed job: kept (its auto-release resumes), released, refunded or split.
    await expect.poll(() => admin.getByRole('radio', { name: 'Keep held (auto-release resumes)' }).count()).toBe(1);
    // Amplify's radio input is drawn by its label: chosen as a pointer user does.
    await admin.locator('label.amplify-radio', { hasText: /^Split$/ }).click();
    expect(await admin.getByRole('radio', { name: 'Split' }).isChecked()).toBe(true);
    const amount = admin.getByLabel('Amount to the worker (USD)');
    // More than the payment is refused before anything is asked of the server.
    await amount.fill(formatUsdAmount(job.payment));
    await admin.getByRole('button', { name: 'Resolve Dispute' }).click();
    await expect.poll(shown(admin, MSG.disputes.splitAmountInvalid(formatUsdAmount(job.payment)))).toBe(1);
    await amount.fill(formatUsdAmount(toWorker));
    await expect.poll(shown(admin, `${formatCents(refunded)} is refunded to the poster.`)).toBe(1);
    await admin.getByRole('button', { name: 'Resolve Dispute' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Resolve this dispute?' });
    await expect
      .poll(() => confirm.getByText(`${formatCents(toWorker)} goes to the worker and ${formatCents(refunded)} is refunded to the poster.`, { exact: false }).count())
      .toBe(1);
    await confirm.getByRole('button', { name: 'Resolve Dispute' }).click();
    await expect.poll(toastShown(admin, MSG.disputes.resolved)).toBe(1);
    await expect.poll(() => row.count()).toBe(0);

    // The admin reads the outcome among the resolved disputes.
    await admin.getByLabel('Show', { exact: true }).selectOption('resolved');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Open' }).click();
    await expect.poll(shown(admin, outcome)).toBe(1);

    // Both parties, in their dispute view, and on the job page.
    for (const [page, dashboard] of [
      [wendy, '/worker-dashboard'],
      [paula, '/poster-dashboard'],
    ] as const) {
      await openDisputeThread(page, dashboard, title);
      await expect.poll(() => page.getByRole('region', { name: 'Disputes', exact: true }).getByText(outcome, { exact: true }).count()).toBe(1);
      await page.goto(webUrl(`/jobs/${job.id}`));
      await expect.poll(() => page.getByRole('main').getByText(outcome, { exact: true }).count()).toBeGreaterThan(0);
      expect(await page.getByRole('button', { name: 'Release Payment' }).count()).toBe(0);
    }
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('the poster pauses the auto-release with a reason and resumes it; the worker sees both live', async () => {
    const title = `Pause the release ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    const reason = 'The paint needs a day to dry before I can check it.';
    const contexts = [await browser().newContext({ viewport: NARROW }), await browser().newContext({ viewport: DESKTOP })];
    const [paula, wendy] = [await signedInPage(contexts[0]!, 'paula@oddjobs.test'), await signedInPage(contexts[1]!, 'wendy@oddjobs.test')];
    await Promise.all([paula, wendy].map((page) => page.goto(webUrl(`/jobs/${job.id}`))));
    await expect.poll(countdownShown(paula, 'poster')).toBe(1);
    await expect.poll(countdownShown(wendy, 'worker')).toBe(1);

    // A reason first, then a confirmation.
    const pause = paula.getByRole('button', { name: 'Pause Automatic Release' });
    expect(await pause.isDisabled()).toBe(true);
    await paula.getByLabel('Reason for pausing').fill(reason);
    await pause.click();
    const confirmPause = paula.getByRole('dialog', { name: 'Pause the automatic release?' });
    await confirmPause.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(toastShown(paula, MSG.payments.autoReleasePausedTitle)).toBe(1);
    await expect.poll(shown(paula, MSG.payments.autoReleasePaused(reason))).toBe(1);
    expect(await countdownShown(paula, 'poster')()).toBe(0);
    expect(await paula.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    expect(await seriousAxeViolations(paula)).toEqual([]);

    // The worker's open page follows without a reload: paused with the reason, no countdown.
    await expect.poll(shown(wendy, MSG.payments.autoReleasePaused(reason))).toBe(1);
    expect(await countdownShown(wendy, 'worker')()).toBe(0);
    // And on the worker's dashboard.
    await wendy.goto(webUrl('/worker-dashboard'));
    await expect.poll(shown(wendy, MSG.payments.autoReleasePaused(reason))).toBe(1);
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(shown(wendy, MSG.payments.autoReleasePaused(reason))).toBe(1);

    // Resumed: the countdown is back on both sides.
    await paula.getByRole('button', { name: 'Resume Automatic Release' }).click();
    await paula.getByRole('dialog', { name: 'Resume the automatic release?' }).getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(toastShown(paula, MSG.payments.autoReleaseResumedTitle)).toBe(1);
    await expect.poll(countdownShown(paula, 'poster')).toBe(1);
    await expect.poll(countdownShown(wendy, 'worker')).toBe(1);
    expect(await shown(wendy, MSG.payments.autoReleasePaused(reason))()).toBe(0);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('a completed job whose payment the admin refunded shows no Release Payment and no countdown, but the refund and its reason', async () => {
    const title = `Refund the gutters ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    const reason = 'The poster paid twice for the same gutters.';
    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: DESKTOP })));
    const [admin, paula, wendy] = await Promise.all([
      signedInPage(contexts[0]!, 'admin@oddjobs.test'),
      signedInPage(contexts[1]!, 'paula@oddjobs.test'),
      signedInPage(contexts[2]!, 'wendy@oddjobs.test'),
    ]);
    await paula.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(() => paula.getByRole('button', { name: 'Release Payment' }).count()).toBe(1);

    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    const payment = admin.getByRole('row').filter({ hasText: title });
    await payment.getByRole('button', { name: `Refund ${title}` }).click();
    const refund = admin.getByRole('dialog', { name: 'Refund this payment?' });
    await refund.getByLabel('Reason for the refund').fill(reason);
    await refund.getByRole('button', { name: `Refund ${formatCents(job.postedAmount)}` }).click();
    await expect.poll(toastShown(admin, MSG.payments.refunded)).toBe(1);

    const refundText = MSG.payments.refundedMessage(title, formatUsdAmount(job.postedAmount), reason);
    // The poster's open page follows live; the worker's on opening it.
    await expect.poll(() => paula.getByRole('button', { name: 'Release Payment' }).count()).toBe(0);
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    for (const [page, viewer] of [
      [paula, 'poster'],
      [wendy, 'worker'],
    ] as const) {
      await expect.poll(() => page.getByRole('main').getByText(refundText, { exact: true }).count()).toBeGreaterThan(0);
      expect(await countdownShown(page, viewer)()).toBe(0);
      expect(await page.getByRole('button', { name: 'Release Payment' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Pause Automatic Release' }).count()).toBe(0);
    }
    // Nor does the poster's dashboard ask for a release.
    await paula.goto(webUrl('/poster-dashboard'));
    await expect.poll(() => paula.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await paula.getByRole('link', { name: `Review & Release ${title}` }).count()).toBe(0);
    await Promise.all(contexts.map((context) => context.close()));
  });
});
