import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { webUrl } from './browser.js';

/** Stripe's test cards, as the local simulator knows them. */
export const TEST_CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** Next year's December: always a valid expiry. */
const EXPIRY = `12/${String(new Date().getFullYear() + 1).slice(-2)}`;

/**
 * From the payment settings on /profile through the simulator's onboarding page and back:
 * on desktop the setup opens in a new window (returned, on the user's dashboard), on a phone
 * it replaces the app (`page` itself returns). Resolves with the page that came back.
 */
export async function connectPaymentAccount(page: Page): Promise<Page> {
  await page.goto(webUrl('/profile#payment-settings'));
  const connect = page.getByRole('button', { name: 'Connect Stripe Account' });
  const phone = (page.viewportSize()?.width ?? 0) < 768;
  let onboarding = page;
  if (phone) {
    await connect.click();
  } else {
    const opened = page.context().waitForEvent('page');
    await connect.click();
    onboarding = await opened;
  }
  await onboarding.waitForURL(/\/onboarding\//);
  expect(await onboarding.title()).toBe('Stripe test mode — account onboarding');
  await onboarding.getByRole('button', { name: 'Complete setup', exact: true }).click();
  // Back on the poster's or worker's dashboard (`?stripe_setup=success`), which clears the parameter once it has handled it.
  await onboarding.waitForURL(/\/(poster|worker)-dashboard$/);
  return onboarding;
}

/** Pays the card step of /post-job with `card`; the caller checks what happens next. */
export async function payByCard(page: Page, card: string): Promise<void> {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}
