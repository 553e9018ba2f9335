import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OwnProfile } from '../../shared/api.js';
import { IDENTITY_STATUS_TEXTS } from '../../shared/identity.js';
import { MSG } from '../../shared/messages.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, idTokenOf, newReadyUser } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { fillJobForm } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signIn } from './sign-in.js';

/** The profile's Identity card: its text, as the user reads it. */
const identityCard = (page: Page) => page.getByRole('region', { name: 'Identity', exact: true });

/** Verify my identity (or Try again), then one of Stripe's test outcomes in the test-mode dialog. */
async function verifyWith(page: Page, button: 'Verify my identity' | 'Try again', outcome: string): Promise<void> {
  await identityCard(page).getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stripe test mode — identity verification' });
  await dialog.getByRole('button', { name: outcome, exact: true }).click();
  await expect.poll(() => dialog.count()).toBe(0);
}

describe('verified people in a browser (issue 47)', () => {
  const browser = useBrowser();

  it('starts with Wendy verified through Stripe\'s test page by the demo data, and the dog walk for ID-verified workers only', async () => {
    const token = await idTokenOf('wendy@oddjobs.test');
    await expect.poll(async () => (await callApi<OwnProfile>('GET', '/me', token)).identity?.status).toBe('verified');
    const board = await (await browser().newContext({ viewport: PHONE })).newPage();
    await board.goto(webUrl('/'));
    const walk = board.locator('.job-card', { hasText: 'Walk a friendly golden retriever' });
    await expect.poll(() => walk.getByText(MSG.identity.verifiedOnly, { exact: true }).count()).toBe(1);
    await board.context().close();
  });

  for (const [posterViewport, workerViewport, label] of [
    [DESKTOP, PHONE, 'the worker at 390 px, the poster on desktop'],
    [PHONE, DESKTOP, 'the poster at 390 px, the worker on desktop'],
  ] as const) {
    it(`a poster posts a job for ID-verified workers; a worker is told to verify, fails a document, verifies, applies, and the poster sees the badge (${label})`, async () => {
      const [posterAccount, workerAccount] = await Promise.all([newReadyUser('Ida Poster', 'poster'), newReadyUser('Ivan Verified')]);
      const title = `Mind the bakery till ${Math.random().toString(36).slice(2, 7)}`;

      // The poster ticks "Only ID-verified workers may apply" and pays.
      const poster = await (await browser().newContext({ viewport: posterViewport })).newPage();
      await signIn(poster, posterAccount.email, posterAccount.password);
      await poster.goto(webUrl('/post-job'));
      await fillJobForm(poster, title);
      await poster.getByLabel(MSG.identity.verifiedOnly).check();
      await poster.getByRole('button', { name: 'Post Job' }).click();
      await payByCard(poster, TEST_CARDS.succeeds);
      await poster.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
      const jobPath = new URL(poster.url()).pathname;
      await expect.poll(() => poster.getByText(MSG.identity.verifiedOnly, { exact: true }).count()).toBe(1);

      // The worker, not verified, is told why they cannot apply and led to verify.
      const worker = await (await browser().newContext({ viewport: workerViewport })).newPage();
      await signIn(worker, workerAccount.email, workerAccount.password);
      await worker.goto(webUrl(jobPath));
      await expect.poll(() => worker.getByText(MSG.identity.applyRefused, { exact: true }).count()).toBe(1);
      expect(await worker.getByRole('button', { name: 'Apply', exact: true }).count()).toBe(0);
      await worker.getByRole('link', { name: 'Verify my identity' }).click();
      await worker.waitForURL(/\/profile#identity$/);
      await expect.poll(() => identityCard(worker).innerText()).toContain(IDENTITY_STATUS_TEXTS.none);

      // A document that fails says what to do next; a second try verifies.
      await verifyWith(worker, 'Verify my identity', 'Document unverified');
      await expect.poll(() => identityCard(worker).getByRole('alert').innerText()).toBe(IDENTITY_STATUS_TEXTS.document_failed);
      expect(await seriousAxeViolations(worker)).toEqual([]);
      await verifyWith(worker, 'Try again', 'Verification success');
      await expect.poll(() => identityCard(worker).locator('.badge--identity').innerText()).toContain(MSG.identity.badge);
      expect(await identityCard(worker).innerText()).toContain(IDENTITY_STATUS_TEXTS.verified);

      // Verified, they apply.
      await worker.goto(webUrl(jobPath));
      await worker.getByRole('button', { name: 'Apply', exact: true }).click();
      await expect.poll(() => worker.getByText('You have already applied for this job.', { exact: false }).count()).toBe(1);

      // The poster sees the badge on their application.
      await poster.goto(webUrl(`${jobPath}?tab=applications`));
      const application = poster.getByRole('article', { name: 'Ivan Verified' });
      await expect.poll(() => application.locator('.badge--identity').innerText()).toContain(MSG.identity.badge);
      expect(await seriousAxeViolations(poster)).toEqual([]);
      await poster.context().close();
      await worker.context().close();
    });
  }
});
