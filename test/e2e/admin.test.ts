import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and pushes take a moment on the local stack. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

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
    await eventually(toastShown(wendy, MSG.flags.reported)).toBe(1);

    // The admin refunds the first job's payment: a reason is required, and the list shows it refunded.
    const adminContext = await browser().newContext();
    const admin = await signedInPage(adminContext, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    await row(admin, refunded.title).getByRole('button', { name: `Refund ${refunded.title}` }).click();
    const refund = admin.getByRole('dialog', { name: 'Refund this payment?' });
    await refund.getByRole('button', { name: /^Refund \$/ }).click();
    await eventually(() => refund.getByRole('alert').innerText()).toBe(MSG.payments.refundReasonRequired);
    await refund.getByLabel('Reason for the refund').fill('Posted twice by mistake');
    await refund.getByRole('button', { name: /^Refund \$/ }).click();
    await eventually(toastShown(admin, MSG.payments.refunded)).toBe(1);
    await eventually(() => row(admin, refunded.title).innerText()).toContain('refunded');

    // The tab is in the URL: a reload keeps the admin on Flagged Jobs.
    await admin.getByRole('tab', { name: 'Flagged Jobs' }).click();
    await admin.waitForURL(/tab=flagged/);
    await admin.reload();
    const flagged = row(admin, reported.title);
    await eventually(() => flagged.innerText()).toContain('Asks for a deposit by bank transfer');
    await flagged.getByRole('button', { name: `Remove ${reported.title}` }).click();
    const removal = admin.getByRole('dialog', { name: 'Remove this job?' });
    await removal.getByLabel('Why it is removed (sent to the poster)').fill('Scam: deposits are not allowed');
    await removal.getByRole('button', { name: 'Remove job' }).click();
    await eventually(toastShown(admin, MSG.admin.flagReviewed)).toBe(1);
    await eventually(() => row(admin, reported.title).count()).toBe(0);
    await eventually(async () => (await callApi<JobDetail>('GET', `/jobs/${reported.id}`, omarToken)).status).toBe('cancelled');

    // Sign Out returns to the landing page.
    await admin.getByRole('button', { name: 'Sign Out' }).click();
    await admin.waitForURL((url) => url.pathname === '/');
    await Promise.all([context.close(), adminContext.close()]);
  }, 120_000);
});
