import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCents, quotePrice } from '../../shared/money.js';
import { OFFER_LABELS, OFFER_TEXTS } from '../../shared/offers.js';
import { DEMO_OFFERS_JOB } from '../../infra/local/offers-demo.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { newReadyUser } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { fillJobForm, toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signIn, signedInPage } from './sign-in.js';

const BUDGET = 6000;

/** A worker's offer from the job's page: the amount, when, and a message. */
async function makeOffer(page: Page, jobPath: string, dollars: string, when: string): Promise<void> {
  await page.goto(webUrl(jobPath));
  await expect.poll(() => page.getByRole('heading', { name: OFFER_LABELS.makeOffer }).count()).toBe(1);
  await page.getByLabel('Your offer ($)').fill(dollars);
  await page.getByLabel('When can you do it? (optional)').fill(when);
  await page.getByLabel('Message to the poster (optional)').fill('I have done a dozen of these.');
  await page.getByRole('button', { name: OFFER_LABELS.makeOffer, exact: true }).click();
  await expect.poll(toastShown(page, OFFER_TEXTS.offerSent)).toBe(1);
}

/** The worker's own offer section on the job's page. */
const ownOffer = (page: Page) => page.getByRole('region', { name: 'Your offer', exact: true });

describe('offers in a browser (issue 45)', () => {
  const browser = useBrowser();

  it("starts with the demo's job open to offers: two offers on it, and Marco's counter-offer waiting for his answer", async () => {
    const context = await browser().newContext({ viewport: PHONE });
    const marco = await signedInPage(context, 'marco@oddjobs.test');
    await marco.goto(webUrl('/'));
    const card = marco.locator('.job-card', { hasText: DEMO_OFFERS_JOB.title });
    await expect.poll(() => card.getByText(OFFER_LABELS.openToOffers, { exact: true }).count()).toBe(1);
    expect(await card.getByText(OFFER_TEXTS.budget(formatCents(DEMO_OFFERS_JOB.payment))).count()).toBe(1);
    await card.getByRole('link', { name: DEMO_OFFERS_JOB.title }).click();
    await expect.poll(() => ownOffer(marco).getByRole('button', { name: OFFER_LABELS.acceptCounter }).count()).toBe(1);
    expect(await ownOffer(marco).innerText()).toContain('The poster proposes $125.00 instead.');
    await context.close();
  });

  // Olga's offer and the poster's counter: above the budget (the difference charged to the poster's card) or under it (refunded).
  for (const [posterViewport, workerViewport, label, [offered, countered]] of [
    [DESKTOP, PHONE, 'above the budget, the workers at 390 px, the poster on desktop', ['70', 6500]],
    [PHONE, DESKTOP, 'under the budget, the poster at 390 px, the workers on desktop', ['50', 4500]],
  ] as const) {
    it(`a poster posts open to offers; two workers offer, one is countered, accepts and is chosen, the other is told (${label})`, async () => {
      const suffix = Math.random().toString(36).slice(2, 7);
      const [posterAccount, olga, otto] = await Promise.all([newReadyUser('Petra Offers', 'poster'), newReadyUser(`Olga Offer ${suffix}`), newReadyUser(`Otto Offer ${suffix}`)]);
      const title = `Hang eight frames ${suffix}`;

      // "Open to offers" when posting; paid at the budget.
      const poster = await (await browser().newContext({ viewport: posterViewport })).newPage();
      await signIn(poster, posterAccount.email, posterAccount.password);
      await poster.goto(webUrl('/post-job'));
      await fillJobForm(poster, title);
      await poster.getByRole('radio', { name: OFFER_LABELS.openToOffers }).check();
      expect(await poster.getByText(OFFER_TEXTS.budgetHint).count()).toBe(1);
      await poster.getByRole('button', { name: 'Post Job' }).click();
      await payByCard(poster, TEST_CARDS.succeeds);
      await poster.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
      const jobPath = new URL(poster.url()).pathname;
      await expect.poll(() => poster.locator('.job-detail__offers').innerText()).toBe(OFFER_LABELS.openToOffers);

      // Two workers offer under the budget; one changes hers.
      const workers = await Promise.all([olga, otto].map(async (account) => {
        const page = await (await browser().newContext({ viewport: workerViewport })).newPage();
        await signIn(page, account.email, account.password);
        return page;
      }));
      const [olgaPage, ottoPage] = workers as [Page, Page];
      await makeOffer(olgaPage, jobPath, offered, 'Saturday morning');
      await expect.poll(() => ownOffer(olgaPage).locator('.own-offer__amount').innerText()).toBe(formatCents(Number(offered) * 100));
      expect(await seriousAxeViolations(olgaPage)).toEqual([]);
      await makeOffer(ottoPage, jobPath, '55', 'Sunday');
      await ownOffer(ottoPage).getByRole('button', { name: OFFER_LABELS.changeOffer }).click();
      await ottoPage.getByLabel('Your offer ($)').fill('58');
      await ottoPage.getByRole('button', { name: 'Save Offer' }).click();
      await expect.poll(() => ownOffer(ottoPage).locator('.own-offer__amount').innerText()).toBe('$58.00');

      // The poster sees each offer beside its worker, and counters Olga's.
      await poster.goto(webUrl(`${jobPath}?tab=applications`));
      const olgaCard = poster.getByRole('article', { name: `Olga Offer ${suffix}` });
      await expect.poll(() => olgaCard.locator('.offer-facts__amount').innerText()).toContain(formatCents(Number(offered) * 100));
      expect(await poster.getByRole('article', { name: `Otto Offer ${suffix}` }).locator('.offer-facts__amount').innerText()).toContain('$58.00');
      expect(await seriousAxeViolations(poster)).toEqual([]);
      await olgaCard.getByRole('button', { name: `${OFFER_LABELS.counterOffer} to Olga Offer ${suffix}` }).click();
      await poster.getByLabel('Your counter-offer ($)').fill(String(countered / 100));
      await poster.getByRole('button', { name: 'Send Counter-offer' }).click();
      await expect.poll(toastShown(poster, OFFER_TEXTS.counterSent)).toBe(1);

      // Olga sees the counter-offer live and accepts it.
      await expect.poll(() => ownOffer(olgaPage).getByRole('button', { name: OFFER_LABELS.acceptCounter }).count(), { timeout: 15_000 }).toBe(1);
      await ownOffer(olgaPage).getByRole('button', { name: OFFER_LABELS.acceptCounter }).click();
      await expect.poll(() => ownOffer(olgaPage).locator('.own-offer__amount').innerText()).toBe(formatCents(countered));

      // The poster accepts it, confirming their total and what comes back to their card or is charged to it.
      await expect.poll(() => olgaCard.locator('.offer-facts__amount').innerText(), { timeout: 15_000 }).toContain(formatCents(countered));
      await olgaCard.getByRole('button', { name: `${OFFER_LABELS.acceptOffer} of Olga Offer ${suffix}` }).click();
      const dialog = poster.getByRole('dialog', { name: `${OFFER_LABELS.acceptOffer}?` });
      const price = quotePrice(countered);
      const refund = quotePrice(BUDGET).postedAmount - price.postedAmount;
      expect(await dialog.innerText()).toContain(
        refund > 0
          ? OFFER_TEXTS.acceptConfirm(`Olga Offer ${suffix}`, formatCents(countered), formatCents(price.postedAmount), formatCents(refund))
          : OFFER_TEXTS.acceptAboveConfirm(`Olga Offer ${suffix}`, formatCents(countered), formatCents(price.postedAmount), formatCents(-refund)),
      );
      await dialog.getByRole('button', { name: OFFER_LABELS.acceptOffer }).click();
      await expect.poll(toastShown(poster, OFFER_TEXTS.offerAccepted)).toBe(1);
      await poster.goto(webUrl(jobPath));
      await expect.poll(() => poster.locator('.job-detail__price').innerText()).toContain(`You pay ${formatCents(price.postedAmount)}`);

      // Olga earns her offer; Otto is told his was not chosen.
      await olgaPage.goto(webUrl(jobPath));
      await expect.poll(() => olgaPage.locator('.job-detail__price').innerText()).toBe(`You earn ${formatCents(countered)}`);
      await ottoPage.goto(webUrl('/notifications'));
      await expect.poll(() => ottoPage.getByText(OFFER_TEXTS.declinedMessage(title)).count(), { timeout: 15_000 }).toBe(1);
      // The poster is told of the difference refunded to their card, or charged to it.
      await poster.goto(webUrl('/notifications'));
      const told = refund > 0 ? OFFER_TEXTS.refundedMessage(formatCents(refund), title) : OFFER_TEXTS.chargedMessage(formatCents(-refund), title);
      await expect.poll(() => poster.getByText(told).count(), { timeout: 15_000 }).toBe(1);

      for (const page of [poster, olgaPage, ottoPage]) await page.context().close();
    });
  }
});
