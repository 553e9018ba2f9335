import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { DESKTOP } from './accounts-helpers.js';
import { callApi, completedByWendy, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';
import { keys } from '../../functions/table.js';
import type { Application, JobSummary } from '../../shared/api.js';
import { e2eTable, e2eTarget, useOwnStack } from './target.js';

/** Short enough to watch in a test, long enough that the dispute is filed first on a busy machine. */
const AUTO_RELEASE_SECONDS = 30;

/** The notifications titled `title` about the job titled `jobTitle`, on the notifications page, read afresh. */
async function notificationsAbout(page: Page, jobTitle: string, title: string): Promise<number> {
  await page.goto(webUrl('/notifications'));
  const rows = page.getByRole('button', { name: new RegExp(jobTitle) });
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  return rows.filter({ hasText: title }).count();
}

/** The row of the job titled `jobTitle` on My Earnings, read afresh (empty when it is not there). */
async function earningsRow(page: Page, jobTitle: string): Promise<string> {
  await page.goto(webUrl('/worker-earnings'));
  await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Paid Jobs' }).count()).toBe(1);
  const row = page.getByRole('row').filter({ hasText: jobTitle });
  return (await row.count()) ? row.innerText() : '';
}

describe('auto-release in a browser', () => {
  // This file's own stack: the suite's keeps the deploy's 72 hours, and no other file waits for this one.
  useOwnStack({ autoReleaseSeconds: AUTO_RELEASE_SECONDS });
  const browser = useBrowser();


  it('releases a completed job after the delay, once, with both sides notified; a dispute cancels it', async () => {
    const suffix = randomUUID().slice(0, 6);
    const [released, disputed] = [`Rake the leaves ${suffix}`, `Fix the gate ${suffix}`];
    const [paulaToken, wendyToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('wendy@oddjobs.test')]);
    // Each job's release time is read as soon as it is completed: on a busy machine the first may come due while the second is set up.
    const completedWithReleaseTime = async (title: string) => {
      const completed = await completedByWendy(title);
      return { completed, releaseAt: (await callApi<JobDetail>('GET', `/jobs/${completed.id}`, paulaToken)).autoReleaseAt };
    };
    const { completed: job, releaseAt: releasedAt } = await completedWithReleaseTime(released);
    const { completed: disputedJob, releaseAt: disputedAt } = await completedWithReleaseTime(disputed);
    await callApi('POST', `/jobs/${disputedJob.id}/dispute`, wendyToken, { type: 'payment', description: 'Please release, the gate is fixed.' });
    const releaseTimes = [releasedAt, disputedAt];
    expect(releaseTimes).toEqual([expect.any(String), expect.any(String)]);

    const contexts = [await browser().newContext({ viewport: DESKTOP }), await browser().newContext({ viewport: DESKTOP })];
    const [wendy, paula] = [await signedInPage(contexts[0]!, 'wendy@oddjobs.test'), await signedInPage(contexts[1]!, 'paula@oddjobs.test')];
    // Nobody releases: the delay passes, and the job is paid on its own.
    const lastDue = Math.max(...releaseTimes.map((time) => Date.parse(time!)));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastDue - Date.now())));
    await expect.poll(() => notificationsAbout(wendy, released, MSG.payments.autoReleasedTitle), { timeout: 60_000 }).toBe(1);
    expect(await earningsRow(wendy, released)).toContain(formatCents(job.payment));
    await expect.poll(() => notificationsAbout(paula, released, MSG.payments.autoReleasedTitle)).toBe(1);

    // Once: the worker was paid and told once, and the disputed job (due by now too) was not released.
    expect(await notificationsAbout(wendy, released, MSG.payments.autoReleasedTitle)).toBe(1);
    expect(await earningsRow(wendy, disputed)).toBe('');
    expect(await notificationsAbout(paula, disputed, MSG.payments.autoReleasedTitle)).toBe(0);
    expect((await callApi<JobDetail>('GET', `/jobs/${disputedJob.id}`, paulaToken)).status).toBe('completed');
    await Promise.all(contexts.map((context) => context.close()));
  });

  it("a due release the worker's account cannot take tells the worker what to do, the poster why, and the admin; it is made once the account is ready", async () => {
    const title = `Clean the shed ${randomUUID().slice(0, 6)}`;
    const [paulaToken, wendyToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('wendy@oddjobs.test')]);
    const job = await postPaidJob(paulaToken, title);
    const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, wendyToken, {});
    await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, paulaToken, {});
    // Stripe asked Wendy for more details: her account cannot take transfers until she answers.
    await setPaymentAccountStatus(workerId, 'pending');
    await callApi<JobSummary>('POST', `/jobs/${job.id}/complete`, wendyToken, {});
    const { autoReleaseAt } = await callApi<JobDetail>('GET', `/jobs/${job.id}`, paulaToken);

    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: DESKTOP })));
    const [wendy, paula, admin] = await Promise.all([
      signedInPage(contexts[0]!, 'wendy@oddjobs.test'),
      signedInPage(contexts[1]!, 'paula@oddjobs.test'),
      signedInPage(contexts[2]!, 'admin@oddjobs.test'),
    ]);
    await Promise.all([wendy, paula].map((page) => page.goto(webUrl(`/jobs/${job.id}`))));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(autoReleaseAt!) - Date.now())));

    // Wendy's page says what to do, with the way there; Paula's says why the release waits.
    await expect.poll(() => wendy.getByText(MSG.payments.autoReleaseBlockedWorker, { exact: false }).count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => paula.getByText(MSG.payments.autoReleaseBlocked, { exact: true }).count()).toBe(1);
    await wendy.goto(webUrl('/worker-dashboard'));
    await expect.poll(() => wendy.getByText(MSG.payments.autoReleaseBlockedWorker, { exact: false }).count()).toBe(1);
    await wendy.getByRole('link', { name: 'Open Payment Settings' }).click();
    await wendy.waitForURL(/\/profile#payment-settings$/);
    await expect.poll(() => wendy.getByRole('heading', { name: 'Payment Settings' }).count()).toBe(1);

    // The admin's Jobs tab marks it.
    await admin.goto(webUrl('/admin-dashboard?tab=jobs'));
    await admin.getByLabel('Status').selectOption('completed');
    await expect.poll(() => admin.getByRole('row').filter({ hasText: title }).getByText('Auto-release blocked').count()).toBe(1);

    // Wendy answers Stripe and refreshes her status (Stripe's account is ready): the release is made.
    await callApi('POST', '/payments/account/status', wendyToken, {});
    await expect.poll(async () => (await callApi<JobDetail>('GET', `/jobs/${job.id}`, paulaToken)).status, { timeout: 60_000 }).toBe('paid');
    await Promise.all(contexts.map((context) => context.close()));
  });
});

/** Sets the payment account status kept on a user's profile, as the account.updated webhook does from Stripe's answer. */
async function setPaymentAccountStatus(userId: string, status: 'pending'): Promise<void> {
  const table = e2eTable();
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: table.endpoint, region: e2eTarget().runtimeConfig.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  await client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.profile(userId),
      UpdateExpression: 'SET paymentAccount.#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    }),
  );
  client.destroy();
}
