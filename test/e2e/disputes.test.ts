import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and pushes take a moment on the local stack. */

/** Opens the dashboard's disputes panel on the dispute about `title` and returns its reply box. */
async function openThread(page: Page, dashboard: string, title: string) {
  await page.goto(webUrl(dashboard));
  const toggle = page.getByRole('region', { name: 'Disputes', exact: true }).getByRole('button', { name: new RegExp(title) });
  await expect.poll(() => toggle.count()).toBe(1);
  await toggle.click();
  const reply = page.getByRole('textbox', { name: 'Reply' });
  await expect.poll(() => reply.count()).toBe(1);
  return { toggle, reply, messages: page.getByRole('list', { name: 'Dispute messages' }) };
}

describe('disputes in a browser', () => {
  const browser = useBrowser();

  it('a worker files, the poster replies live, the admin resolves by template, and both threads close', async () => {
    const [paulaToken, marcoToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('marco@oddjobs.test')]);
    const title = `Repaint a porch railing ${randomUUID().slice(0, 4)}`;
    const job = await postPaidJob(paulaToken, title);
    await callApi('POST', `/jobs/${job.id}/applications`, marcoToken, {});
    const marcoId = (await callApi<{ id: string }>('GET', '/me', marcoToken)).id;
    await callApi<JobSummary>('POST', `/jobs/${job.id}/applications/${marcoId}/accept`, paulaToken);

    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: { width: 1280, height: 900 } })));
    const [marco, paula, admin] = await Promise.all([
      signedInPage(contexts[0]!, 'marco@oddjobs.test'),
      signedInPage(contexts[1]!, 'paula@oddjobs.test'),
      signedInPage(contexts[2]!, 'admin@oddjobs.test'),
    ]);

    // Marco files from the Dispute Center: required fields first, then the confirmation.
    await marco.goto(webUrl(`/jobs/${job.id}/dispute`));
    await expect.poll(() => marco.getByRole('heading', { name: MSG.disputes.submitADispute }).count()).toBe(1);
    expect(await marco.getByRole('heading', { name: MSG.disputes.howDisputesWork }).count()).toBe(1);
    expect(await marco.getByLabel('Description').getAttribute('rows')).toBe('4');
    await marco.getByRole('button', { name: MSG.disputes.submitDispute }).click();
    await expect.poll(() => marco.getByText(MSG.disputes.fillRequired).count()).toBe(1);
    await marco.getByLabel('Dispute type').selectOption('payment');
    await marco.getByLabel('Description').fill('The railing is done but the payment has not been released after a week.');
    await marco.getByRole('button', { name: MSG.disputes.submitDispute }).click();
    await expect.poll(toastShown(marco, MSG.disputes.submitted)).toBe(1);
    await expect.poll(() => marco.getByRole('heading', { name: MSG.disputes.underReview }).count()).toBe(1);

    // Both parties open the thread from their dashboards; Paula's reply reaches Marco live.
    const marcoThread = await openThread(marco, '/worker-dashboard', title);
    const paulaThread = await openThread(paula, '/poster-dashboard', title);
    await paulaThread.reply.fill('I was travelling.');
    await paulaThread.reply.press('Shift+Enter');
    await paulaThread.reply.pressSequentially('Releasing it today.');
    await paulaThread.reply.press('Enter');
    await expect.poll(toastShown(paula, MSG.disputes.responseSent)).toBe(1);
    await expect.poll(() => marcoThread.messages.locator('.dispute-message').last().innerText()).toContain('I was travelling.\nReleasing it today.');
    expect(await paulaThread.reply.inputValue()).toBe('');

    // The admin resolves it by template from the Disputes tab.
    await admin.goto(webUrl('/admin-dashboard'));
    const disputesTab = admin.getByRole('tab', { name: 'Disputes' });
    await disputesTab.click();
    // The job's payment row on the Transactions tab bears the same title until the tab switched.
    await expect.poll(() => disputesTab.getAttribute('aria-selected')).toBe('true');
    const row = admin.getByRole('row', { name: new RegExp(title) });
    await expect.poll(() => row.locator('.amplify-badge').innerText()).toBe('medium');
    await admin.getByRole('button', { name: /^Resolve Selected/ }).click();
    await expect.poll(toastShown(admin, MSG.disputes.selectDisputes)).toBe(1);
    await row.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => admin.getByRole('list', { name: 'Dispute messages' }).getByText('Releasing it today.', { exact: false }).count()).toBe(1);
    await admin.getByLabel('Resolution template', { exact: true }).selectOption({ label: 'Payment released to the worker' });
    await admin.getByRole('button', { name: 'Resolve Dispute' }).click();
    // Confirmed first: the assigned job's payment stays held (no money decided here).
    const confirm = admin.getByRole('dialog', { name: 'Resolve this dispute?' });
    await expect.poll(() => confirm.getByText(`The payment of ${formatCents(job.postedAmount)} stays held.`).count()).toBe(1);
    await confirm.getByRole('button', { name: 'Resolve Dispute' }).click();
    await expect.poll(toastShown(admin, MSG.disputes.resolved)).toBe(1);
    await expect.poll(() => row.count()).toBe(0);

    // Both parties see the thread close without reloading: 'closed', the resolution, no more replies.
    for (const { page, thread } of [
      { page: marco, thread: marcoThread },
      { page: paula, thread: paulaThread },
    ]) {
      await expect.poll(() => thread.reply.isDisabled()).toBe(true);
      expect(await thread.toggle.getByText('closed', { exact: true }).count()).toBe(1);
      expect(await page.getByText('The work was completed as agreed', { exact: false }).count()).toBe(1);
    }

    // Paula's Submit Dispute dialog offers her jobs with a worker and asks for one first.
    await paula.getByRole('button', { name: MSG.disputes.submitDispute }).click();
    const dialog = paula.getByRole('dialog', { name: MSG.disputes.submitADispute });
    await expect.poll(() => dialog.getByRole('option', { name: title }).count()).toBe(1);
    await dialog.getByRole('button', { name: MSG.disputes.submitDispute }).click();
    await expect.poll(() => dialog.getByText(MSG.disputes.selectJob).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);

    await Promise.all(contexts.map((context) => context.close()));
  });
});
