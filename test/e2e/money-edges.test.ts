import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Application, Dispute, JobSummary, PendingMoneyDecision, ReversalPreview } from '../../shared/api.js';
import type { JobLedger } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatCents, formatUsdAmount } from '../../shared/money.js';
import type { InstantPayoutAvailability } from '../../shared/payouts.js';
import { keys } from '../../functions/table.js';
import { DESKTOP, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, completedByWendy, idTokenOf, newReadyUser, postPaidJob, stripeDashboard } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signIn, signedInPage } from './sign-in.js';
import { e2eTable, e2eTarget } from './target.js';

/** 375 px: the narrowest phone the layouts are made for. */
const NARROW = { width: 375, height: 812 } as const;
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/** The stack's table, for what only Stripe can do to an account (take its transfers away) and the deploy sets. */
function table() {
  const { endpoint, name } = e2eTable();
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: e2eTarget().runtimeConfig.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
  return {
    setStripeAccount: (userId: string, accountId: string) =>
      client.send(new UpdateCommand({ TableName: name, Key: keys.profile(userId), UpdateExpression: 'SET stripeAccountId = :account', ExpressionAttributeValues: { ':account': accountId } })),
    close: () => client.destroy(),
  };
}

/** A job of Paula's done by `worker`: posted, applied for, accepted, completed. */
async function completedBy(worker: { token: string }, title: string): Promise<JobSummary> {
  const paula = await idTokenOf('paula@oddjobs.test');
  const job = await postPaidJob(paula, title);
  const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, worker.token, {});
  await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, paula, {});
  return callApi<JobSummary>('POST', `/jobs/${job.id}/complete`, worker.token, {});
}

/** The job's payment (its PaymentIntent), as the admin's ledger names it. */
const paymentOf = async (jobId: string, adminToken: string) => (await callApi<JobLedger>('GET', `/admin/jobs/${jobId}/ledger`, adminToken)).movements.find((move) => move.kind === 'charge')!.stripe!.id;

describe('money at its edges, in a browser', () => {
  const browser = useBrowser();

  it("the admin reverses a release whose worker cashed out: the console shows what the worker's balance returns and what is lost, and the worker sees the debt", async () => {
    const worker = await newReadyUser('Cashed-out Casey');
    const title = `Reversed after a cash-out ${randomUUID().slice(0, 6)}`;
    const job = await completedBy(worker, title);
    const [paula, adminToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('admin@oddjobs.test')]);
    await callApi('POST', `/jobs/${job.id}/release-payment`, paula, {});
    const { cashOut } = await callApi<InstantPayoutAvailability>('GET', '/me/payouts/instant', worker.token);
    await callApi('POST', '/me/payouts/instant', worker.token, { amount: cashOut!.amount, idempotencyKey: `e2e-${randomUUID()}` });
    const preview = await callApi<ReversalPreview>('GET', `/admin/payments/${await paymentOf(job.id, adminToken)}/reversal`, adminToken);
    expect(preview.unrecoverable).toBeGreaterThan(0);

    const contexts = [await browser().newContext({ viewport: DESKTOP }), await browser().newContext({ viewport: NARROW })];
    const admin = await signedInPage(contexts[0]!, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    const row = admin.getByRole('row').filter({ hasText: title });
    await row.getByRole('button', { name: `Reverse & refund ${title}` }).click();
    const dialog = admin.getByRole('dialog', { name: "Reverse the worker's payment and refund?" });
    // Read from Stripe as the dialog opens: what the balance returns, what was cashed out, what the poster gets back.
    await eventually(() => dialog.locator('.reversal-preview').getByText(formatCents(preview.recoverable), { exact: true }).count()).toBe(1);
    await eventually(() => dialog.locator('.reversal-preview').getByText(formatCents(preview.unrecoverable), { exact: true }).count()).toBe(1);
    await eventually(() => dialog.locator('.reversal-preview').getByText(formatCents(preview.refund), { exact: true }).count()).toBe(1);
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await dialog.getByLabel('Reason for the refund').fill('The work was never done.');
    await dialog.getByRole('button', { name: preview.recoverable > 0 ? `Reverse ${formatCents(preview.recoverable)} from Cashed-out Casey` : 'Refund without reversing' }).click();
    await eventually(toastShown(admin, MSG.payments.refunded)).toBe(1);
    await eventually(() => row.getByText('refunded', { exact: true }).count()).toBe(1);

    // The worker, on a phone: the job says what moved, My Earnings what they owe.
    const casey = await contexts[1]!.newPage();
    await signIn(casey, worker.email, worker.password);
    await casey.goto(webUrl(`/jobs/${job.id}`));
    const summary = MSG.payments.reversalSummary(title, formatUsdAmount(preview.recoverable), formatUsdAmount(preview.unrecoverable), 'The work was never done.');
    await eventually(() => casey.getByText(summary, { exact: true }).count()).toBe(1);
    await casey.goto(webUrl('/worker-earnings'));
    await eventually(() => casey.getByText('Owed to the platform', { exact: true }).count()).toBe(1);
    await eventually(() => casey.getByRole('region', { name: 'Payments taken back', exact: true }).getByText(formatCents(preview.unrecoverable), { exact: true }).count()).toBe(1);
    expect(await casey.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it("a chargeback shows on the job for the poster, the worker and the admin, with its evidence deadline, and on the admin's payments", async () => {
    const title = `Disputed by the bank ${randomUUID().slice(0, 6)}`;
    const job = await completedByWendy(title);
    const adminToken = await idTokenOf('admin@oddjobs.test');
    const intent = await stripeDashboard().paymentIntents.retrieve(await paymentOf(job.id, adminToken));
    // The poster's card's bank opens the chargeback (the simulator's stand-in for it).
    const opened = await fetch(`${e2eTarget().runtimeConfig.stripe.simulatorUrl}/bank/disputes/${String(intent.latest_charge)}`, { method: 'POST' });
    expect(opened.status).toBe(200);

    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: DESKTOP })));
    const [paula, wendy, admin] = await Promise.all([
      signedInPage(contexts[0]!, 'paula@oddjobs.test'),
      signedInPage(contexts[1]!, 'wendy@oddjobs.test'),
      signedInPage(contexts[2]!, 'admin@oddjobs.test'),
    ]);
    for (const page of [paula, wendy, admin]) {
      await page.goto(webUrl(`/jobs/${job.id}`));
      const notice = page.locator('.notice--warning', { hasText: MSG.payments.chargebackOpenedTitle });
      await eventually(() => notice.count()).toBe(1);
      await eventually(() => notice.getByText('Evidence is due by', { exact: false }).count()).toBe(1);
    }
    // Frozen: the poster is not offered a release while the bank decides.
    expect(await paula.getByRole('button', { name: 'Release Payment' }).count()).toBe(0);
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    const row = admin.getByRole('row').filter({ hasText: title });
    await eventually(() => row.getByText('Chargeback open', { exact: true }).count()).toBe(1);
    expect(await row.getByRole('button', { name: new RegExp(`Refund ${title}`) }).count()).toBe(0);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('a money decision Stripe could not finish shows on the console with Stripe\u2019s answer, and clears after the admin retries it', async () => {
    const worker = await newReadyUser('Restricted Riley');
    const title = `Split while the account was restricted ${randomUUID().slice(0, 6)}`;
    const job = await completedBy(worker, title);
    const adminToken = await idTokenOf('admin@oddjobs.test');
    const dispute = await callApi<Dispute>('POST', `/jobs/${job.id}/dispute`, worker.token, { type: 'payment', description: 'Half of it is mine.' });
    // Stripe takes the account's transfers capability away after our last look at it (an Express
    // account not yet onboarded stands for it, on the worker's profile; our copy still says ready).
    const accounts = table();
    const restricted = await stripeDashboard().accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } });
    await accounts.setStripeAccount(worker.userId, restricted.id);
    accounts.close();
    // The split's refund is made; its transfer is refused: the decision waits, half carried out.
    await expect(callApi('POST', `/admin/disputes/${dispute.id}/resolve`, adminToken, { resolution: 'Split', money: { decision: 'split', toWorker: 2000 } })).rejects.toThrow();
    const pending = await callApi<{ items: PendingMoneyDecision[] }>('GET', '/admin/money/decisions', adminToken);
    expect(pending.items.filter((decision) => decision.jobId === job.id)).toEqual([expect.objectContaining({ action: 'split', lastError: expect.any(String) })]);

    const context = await browser().newContext({ viewport: NARROW });
    const admin = await signedInPage(context, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=transactions'));
    const panel = admin.getByRole('region', { name: 'Money decisions waiting for Stripe', exact: true });
    const item = panel.getByRole('listitem').filter({ hasText: title });
    await eventually(() => item.count()).toBe(1);
    await eventually(() => item.getByText('Dispute split', { exact: true }).count()).toBe(1);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);

    // The worker answers Stripe's questions (the account's onboarding done): the admin's retry carries it out.
    const link = await stripeDashboard().accountLinks.create({ account: restricted.id, type: 'account_onboarding', refresh_url: webUrl('/profile'), return_url: webUrl('/worker-dashboard') });
    await fetch(`${link.url}/complete`, { method: 'POST', redirect: 'manual' });
    await item.getByRole('button', { name: `Retry now ${title}` }).click();
    await eventually(toastShown(admin, MSG.admin.decisionRetried)).toBe(1);
    await eventually(() => item.count()).toBe(0);
    await eventually(async () => (await callApi<JobSummary>('GET', `/jobs/${job.id}`, worker.token)).moneyState).toBe('split');
    await context.close();
  });
});
