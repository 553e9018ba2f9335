import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { callApi, completedByWendy, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('the admin console in a browser', () => {
  const browser = useBrowser();

  it('refunds a payment with a reason, and removes a job a worker reported', async () => {
    const suffix = randomUUID().slice(0, 6);
    const [paulaToken, omarToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('omar@oddjobs.test')]);
    const refunded = await postPaidJob(paulaToken, `Refund me ${suffix}`);
    const reported = await postPaidJob(omarToken, `Report me ${suffix}`);

    // A worker reports the second job from its page.
    const context = await browser().newContext();
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    await wendy.goto(webUrl(`/jobs/${reported.id}`));
    await wendy.getByRole('button', { name: MSG.flags.reportThisJob }).click();
    const report = wendy.getByRole('dialog', { name: MSG.flags.reportThisJob });
    await report.getByLabel('What is wrong?').selectOption('scam');
    await report.getByLabel('Reason').fill('Asks for a deposit by bank transfer');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(toastShown(wendy, MSG.flags.reported)).toBe(1);

    // The admin refunds the first job's payment: a reason is required, and the list shows it refunded.
    const adminContext = await browser().newContext();
    const admin = await signedInPage(adminContext, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    await row(admin, refunded.title).getByRole('button', { name: `Refund ${refunded.title}` }).click();
    const refund = admin.getByRole('dialog', { name: 'Refund this payment?' });
    await refund.getByRole('button', { name: /^Refund \$/ }).click();
    await expect.poll(() => refund.getByRole('alert').innerText()).toBe(MSG.payments.refundReasonRequired);
    await refund.getByLabel('Reason for the refund').fill('Posted twice by mistake');
    await refund.getByRole('button', { name: /^Refund \$/ }).click();
    await expect.poll(toastShown(admin, MSG.payments.refunded)).toBe(1);
    await expect.poll(() => row(admin, refunded.title).innerText()).toContain('refunded');

    // The tab is in the URL: a reload keeps the admin on Flagged Jobs.
    await admin.getByRole('tab', { name: 'Flagged Jobs' }).click();
    await admin.waitForURL(/tab=flagged/);
    await admin.reload();
    const flagged = row(admin, reported.title);
    await expect.poll(() => flagged.innerText()).toContain('Asks for a deposit by bank transfer');
    await flagged.getByRole('button', { name: `Remove ${reported.title}` }).click();
    const removal = admin.getByRole('dialog', { name: 'Remove this job?' });
    await removal.getByLabel('Why it is removed (sent to the poster)').fill('Scam: deposits are not allowed');
    await removal.getByRole('button', { name: 'Remove job' }).click();
    await expect.poll(toastShown(admin, MSG.admin.flagReviewed)).toBe(1);
    await expect.poll(() => row(admin, reported.title).count()).toBe(0);
    await expect.poll(async () => (await callApi<JobDetail>('GET', `/jobs/${reported.id}`, omarToken)).status).toBe('cancelled');

    // Sign Out returns to the landing page.
    await admin.getByRole('button', { name: 'Sign Out' }).click();
    await admin.waitForURL((url) => url.pathname === '/');
    await Promise.all([context.close(), adminContext.close()]);
  }, 120_000);

  it('edits a review of a paid job from the Jobs tab', async () => {
    const context = await browser().newContext();
    const admin = await signedInPage(context, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=jobs'));
    await admin.getByLabel('Status').selectOption('paid');
    // The demo job Wendy did for Omar, paid and reviewed both ways.
    const title = 'Rake leaves in a backyard';
    await admin.getByRole('button', { name: `Reviews of ${title}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Reviews of "${title}"` });
    const byWendy = dialog.getByRole('form', { name: 'Review by Wendy Worker' });
    const save = byWendy.getByRole('button', { name: 'Save review' });
    expect(await save.isDisabled()).toBe(true);
    const comment = `Clear instructions; edited by support ${randomUUID().slice(0, 4)}`;
    await byWendy.getByLabel('Comment').fill(comment);
    await save.click();
    await expect.poll(toastShown(admin, MSG.reviews.updated)).toBe(1);
    // Read back from the server: the form shows the saved review, with nothing left to save.
    await expect.poll(() => save.isDisabled()).toBe(true);
    expect(await byWendy.getByLabel('Comment').inputValue()).toBe(comment);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await context.close();
  });
  it("leads from a paid job in the Jobs tab to its payment's Reverse & refund in Transactions (a paid job is not cancelled)", async () => {
    const title = `Paid then questioned ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    await callApi('POST', `/jobs/${job.id}/release-payment`, await idTokenOf('paula@oddjobs.test'), {});
    const context = await browser().newContext();
    const admin = await signedInPage(context, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=jobs'));
    await admin.getByLabel('Status').selectOption('paid');
    const paid = row(admin, title);
    expect(await paid.getByRole('button', { name: `Cancel ${title}` }).count()).toBe(0);
    await paid.getByRole('link', { name: `Reverse & refund ${title}` }).click();
    await admin.waitForURL(/tab=transactions&job=/);
    // That job's payment alone, with its own Reverse & refund, which asks before anything moves.
    const table = admin.getByRole('table', { name: "The job's payment" });
    await expect.poll(() => table.getByRole('row').filter({ hasText: title }).count()).toBe(1);
    expect(await table.getByRole('row').count()).toBe(2);
    await table.getByRole('button', { name: `Reverse & refund ${title}` }).click();
    const dialog = admin.getByRole('dialog', { name: "Reverse the worker's payment and refund?" });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await admin.getByRole('link', { name: 'show all payments' }).click();
    await admin.getByRole('table', { name: 'Payments, newest first' }).waitFor();
    await context.close();
  });

  it('hides a category from the post-job form with a reason and shows it again', async () => {
    const adminContext = await browser().newContext();
    const admin = await signedInPage(adminContext, 'admin@oddjobs.test');
    // The mobile menu's Categories link opens the Categories tab.
    await admin.goto(webUrl('/admin/categories'));
    await admin.waitForURL(/tab=categories/);
    const assembly = row(admin, 'Assembly');
    await assembly.getByRole('button', { name: 'Hide Assembly' }).click();
    const hide = admin.getByRole('dialog', { name: 'Hide Assembly?' });
    await hide.getByLabel('Reason').fill('Merged into Handyman');
    await hide.getByRole('button', { name: 'Hide category' }).click();
    await expect.poll(toastShown(admin, MSG.admin.categoryHidden('Assembly'))).toBe(1);
    await expect.poll(() => assembly.innerText()).toContain('Hidden');

    const posterContext = await browser().newContext();
    const poster = await signedInPage(posterContext, 'paula@oddjobs.test');
    await poster.goto(webUrl('/post-job'));
    const options = () => poster.getByLabel('Category').locator('option').allInnerTexts();
    await expect.poll(options).toContain('Handyman');
    // The declared categories render first; the hidden ones leave once their read answers.
    await expect.poll(options).not.toContain('Assembly');

    await assembly.getByRole('button', { name: 'Show Assembly' }).click();
    const show = admin.getByRole('dialog', { name: 'Show Assembly again?' });
    await show.getByLabel('Reason').fill('Split out again');
    await show.getByRole('button', { name: 'Show category' }).click();
    await expect.poll(toastShown(admin, MSG.admin.categoryShown('Assembly'))).toBe(1);
    await poster.reload();
    await expect.poll(options).toContain('Assembly');
    await Promise.all([adminContext.close(), posterContext.close()]);
  });
});
