import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Application, JobSummary } from '../../shared/api.js';
import { DEMO_PRICE_CHANGE_JOB } from '../../infra/local/offers-demo.js';
import { formatCents, quotePrice } from '../../shared/money.js';
import { PRICE_CHANGE_LABELS, PRICE_CHANGE_TEXTS } from '../../shared/price-changes.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, idTokenOf, newReadyUser, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { TEST_CARDS as SERVER_CARDS } from '../support/payments.js';
import { signIn, signedInPage } from './sign-in.js';

/** A paid job of a new poster's, assigned through the API to a new worker. */
async function assignedJob(posterName: string, workerName: string, title: string, card?: string) {
  const [poster, worker] = await Promise.all([newReadyUser(posterName, 'poster'), newReadyUser(workerName)]);
  const job = await postPaidJob(poster.token, title, card);
  const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, worker.token, {});
  await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, poster.token, {});
  return { posterAccount: poster, workerAccount: worker, job };
}

/** The job page's price card. */
const priceCard = (page: Page) => page.getByRole('region', { name: PRICE_CHANGE_TEXTS.cardTitle, exact: true });

describe('price changes in a browser (issue 45)', () => {
  const browser = useBrowser();

  it("starts with the demo's price change waiting for Omar's answer on the shed Wendy works", async () => {
    const omarToken = await idTokenOf('omar@oddjobs.test');
    const { items } = await callApi<{ items: JobSummary[] }>('GET', '/me/jobs', omarToken);
    const shed = items.find((job) => job.title === DEMO_PRICE_CHANGE_JOB.title);
    expect(shed?.status).toBe('assigned');
    const omar = await signedInPage(await browser().newContext({ viewport: PHONE }), 'omar@oddjobs.test');
    await omar.goto(webUrl(`/jobs/${shed!.id}`));
    await expect.poll(() => priceCard(omar).getByText(PRICE_CHANGE_TEXTS.pendingForPoster('Wendy Worker', '$90.00')).count()).toBe(1);
    expect(await priceCard(omar).getByRole('button', { name: PRICE_CHANGE_LABELS.approve }).count()).toBe(1);
    await omar.context().close();
  });

  for (const [posterViewport, workerViewport, label] of [
    [DESKTOP, PHONE, 'the worker at 390 px, the poster on desktop'],
    [PHONE, DESKTOP, 'the poster at 390 px, the worker on desktop'],
  ] as const) {
    it(`the assigned worker requests a price change, the poster sees it live and approves it with the refund confirmed (${label})`, async () => {
      const suffix = Math.random().toString(36).slice(2, 7);
      const title = `Oil a deck ${suffix}`;
      const { posterAccount, workerAccount, job } = await assignedJob('Pia Price', `Walt Price ${suffix}`, title);
      const jobPath = `/jobs/${job.id}`;

      const [poster, worker] = await Promise.all(
        [
          [posterAccount, posterViewport],
          [workerAccount, workerViewport],
        ].map(async ([account, viewport]) => {
          const page = await (await browser().newContext({ viewport: viewport as typeof PHONE })).newPage();
          const { email, password } = account as typeof posterAccount;
          await signIn(page, email, password);
          await page.goto(webUrl(jobPath));
          return page;
        }),
      ) as [Page, Page];

      // The worker asks for less, with a reason; the form says what is allowed before sending.
      await priceCard(worker).getByRole('button', { name: PRICE_CHANGE_LABELS.request }).click();
      await worker.getByLabel(`${PRICE_CHANGE_TEXTS.amountLabel} ($)`).fill(String(job.payment / 100));
      await worker.getByRole('button', { name: PRICE_CHANGE_LABELS.send }).click();
      expect(await priceCard(worker).getByText(PRICE_CHANGE_TEXTS.sameAmount).count()).toBe(1);
      expect(await priceCard(worker).getByText(PRICE_CHANGE_TEXTS.reasonRequired).count()).toBe(1);
      await worker.getByLabel(`${PRICE_CHANGE_TEXTS.amountLabel} ($)`).fill('60');
      await worker.getByLabel(PRICE_CHANGE_TEXTS.reasonLabel).fill('Only half the deck needs oil');
      expect(await seriousAxeViolations(worker)).toEqual([]);
      await worker.getByRole('button', { name: PRICE_CHANGE_LABELS.send }).click();
      await expect.poll(toastShown(worker, PRICE_CHANGE_TEXTS.requested)).toBe(1);
      await expect.poll(() => priceCard(worker).getByText(PRICE_CHANGE_TEXTS.pendingForWorker('$60.00')).count()).toBe(1);

      // The poster's open page shows the request live, and the confirmation names their total and refund.
      await expect.poll(() => priceCard(poster).getByText(PRICE_CHANGE_TEXTS.pendingForPoster(`Walt Price ${suffix}`, '$60.00')).count(), { timeout: 15_000 }).toBe(1);
      expect(await priceCard(poster).getByText('“Only half the deck needs oil”').count()).toBeGreaterThan(0);
      expect(await seriousAxeViolations(poster)).toEqual([]);
      await priceCard(poster).getByRole('button', { name: PRICE_CHANGE_LABELS.approve }).click();
      const dialog = poster.getByRole('dialog', { name: PRICE_CHANGE_LABELS.approve });
      const price = quotePrice(6000);
      const refund = quotePrice(job.payment).postedAmount - price.postedAmount;
      expect(await dialog.innerText()).toContain(PRICE_CHANGE_TEXTS.approveConfirm(formatCents(6000), formatCents(price.postedAmount), formatCents(refund)));
      await dialog.getByRole('button', { name: PRICE_CHANGE_LABELS.approve }).click();
      await expect.poll(toastShown(poster, PRICE_CHANGE_TEXTS.approved)).toBe(1);
      await expect.poll(() => poster.locator('.job-detail__price').innerText()).toContain(`You pay ${formatCents(price.postedAmount)}`);
      await expect.poll(() => priceCard(poster).locator('.price-change__status').allInnerTexts()).toEqual([PRICE_CHANGE_TEXTS.statusLabels.approved]);

      // The worker's page shows their new pay live, and the history with it.
      await expect.poll(() => worker.locator('.job-detail__price').innerText(), { timeout: 15_000 }).toBe(`You earn ${formatCents(6000)}`);
      await expect.poll(() => priceCard(worker).getByText(`${formatCents(job.payment)} → ${formatCents(6000)}`).count()).toBe(1);
      await worker.goto(webUrl('/notifications'));
      await expect.poll(() => worker.getByText(PRICE_CHANGE_TEXTS.approvedMessage('$60.00', title)).count(), { timeout: 15_000 }).toBe(1);

      for (const page of [poster, worker]) await page.context().close();
    });
  }

  it('a declined price change tells the worker why, and the admin sees the history on the job', async () => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const title = `Seal a patio ${suffix}`;
    const { posterAccount, workerAccount, job } = await assignedJob('Pia Decline', `Walt Decline ${suffix}`, title);
    await callApi('POST', `/jobs/${job.id}/price-change`, workerAccount.token, { amount: 5000, reason: 'Smaller patio than described' });

    const poster = await (await browser().newContext({ viewport: PHONE })).newPage();
    await signIn(poster, posterAccount.email, posterAccount.password);
    await poster.goto(webUrl(`/jobs/${job.id}`));
    await priceCard(poster).getByRole('button', { name: PRICE_CHANGE_LABELS.decline }).click();
    await priceCard(poster).getByLabel('Reason (optional)').fill('It is the size in the photos');
    await priceCard(poster).getByRole('button', { name: PRICE_CHANGE_LABELS.decline }).click();
    await expect.poll(toastShown(poster, PRICE_CHANGE_TEXTS.declined)).toBe(1);
    await expect.poll(() => priceCard(poster).locator('.price-change__status').allInnerTexts()).toEqual([PRICE_CHANGE_TEXTS.statusLabels.declined]);
    await poster.context().close();

    const admin = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(admin, 'admin@oddjobs.test');
    await admin.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(() => priceCard(admin).getByText('Declined: “It is the size in the photos”').count()).toBe(1);
    expect(await priceCard(admin).getByRole('button').count()).toBe(0);
    await admin.context().close();

    const notices = await callApi<{ items: Array<{ message: string }> }>('GET', '/me/notifications', await idTokenOf(workerAccount.email, workerAccount.password));
    expect(notices.items.map((note) => note.message)).toContain(PRICE_CHANGE_TEXTS.declinedMessage(title, 'It is the size in the photos'));
  });

  it('a higher price is charged to the saved card after the card step the bank asks for, and the worker sees the new pay (the poster at 390 px)', async () => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const title = `Fit a kitchen tap ${suffix}`;
    const { posterAccount, workerAccount, job } = await assignedJob('Pia Raise', `Walt Raise ${suffix}`, title, SERVER_CARDS.alwaysAuthenticates);
    await callApi('POST', `/jobs/${job.id}/price-change`, workerAccount.token, { amount: 9000, reason: 'The old tap is seized and must be cut out' });

    const poster = await (await browser().newContext({ viewport: PHONE })).newPage();
    await signIn(poster, posterAccount.email, posterAccount.password);
    await poster.goto(webUrl(`/jobs/${job.id}`));
    await priceCard(poster).getByRole('button', { name: PRICE_CHANGE_LABELS.approve }).click();
    const dialog = poster.getByRole('dialog', { name: PRICE_CHANGE_LABELS.approve });
    const price = quotePrice(9000);
    const charge = price.postedAmount - quotePrice(job.payment).postedAmount;
    expect(await dialog.innerText()).toContain(PRICE_CHANGE_TEXTS.approveRaiseConfirm(formatCents(9000), formatCents(price.postedAmount), formatCents(charge)));
    await dialog.getByRole('button', { name: PRICE_CHANGE_LABELS.approve }).click();

    // The bank asks for the card step: confirmed, the approval finishes.
    await expect.poll(() => priceCard(poster).getByText(PRICE_CHANGE_TEXTS.cardNeeded).count()).toBe(1);
    expect(await seriousAxeViolations(poster)).toEqual([]);
    await payByCard(poster, TEST_CARDS.succeeds);
    await expect.poll(toastShown(poster, PRICE_CHANGE_TEXTS.approvedCharged)).toBe(1);
    await expect.poll(() => poster.locator('.job-detail__price').innerText()).toContain(`You pay ${formatCents(price.postedAmount)}`);
    await expect.poll(() => priceCard(poster).getByText(`Charged to the poster: ${formatCents(charge)}`).count()).toBe(1);
    await poster.context().close();

    const worker = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(worker, workerAccount.email, workerAccount.password);
    await worker.goto(webUrl(`/jobs/${job.id}`));
    await expect.poll(() => worker.locator('.job-detail__price').innerText()).toBe(`You earn ${formatCents(9000)}`);
    await worker.context().close();
  });
});
