import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Application, JobSummary } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import type { InstantPayoutAvailability } from '../../shared/payouts.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** The narrowest phone the app supports. */
const PHONE = { width: 375, height: 812 } as const;

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe('instant payouts in a browser', () => {
  const browser = useBrowser();

  it("cashes out the worker's instant balance from My Earnings on a phone, the fee and the net shown before confirming", async () => {
    // Wendy (seeded, paid out to Stripe's instant-capable Visa debit) is paid for a released job.
    const [paula, wendyToken] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('wendy@oddjobs.test')]);
    const job = await postPaidJob(paula, `Wash the car ${randomUUID().slice(0, 6)}`);
    const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, wendyToken, {});
    await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, paula, {});
    await callApi('POST', `/jobs/${job.id}/complete`, wendyToken, {});
    await callApi<JobSummary>('POST', `/jobs/${job.id}/release-payment`, paula, {});
    const before = await callApi<InstantPayoutAvailability>('GET', '/me/payouts/instant', wendyToken);
    expect(before.eligible).toBe(true);
    const { amount, fee } = before.cashOut!;

    const context = await browser().newContext({ viewport: PHONE });
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    await wendy.goto(webUrl('/worker-earnings'));
    const section = wendy.getByRole('region', { name: 'Instant Payout', exact: true });
    await eventually(() => section.getByText(MSG.payouts.feeLine(formatCents(fee))).count()).toBe(1);
    await eventually(() => section.getByText(MSG.payouts.netLine(formatCents(amount))).count()).toBe(1);
    await section.getByRole('button', { name: MSG.payouts.cashOut }).click();
    const dialog = wendy.getByRole('dialog', { name: MSG.payouts.confirmTitle });
    await eventually(() => dialog.getByText(MSG.payouts.confirm(formatCents(amount), '5556', formatCents(fee), formatCents(amount + fee))).count()).toBe(1);
    await dialog.getByRole('button', { name: `Cash out ${formatCents(amount)}` }).click();
    await eventually(toastShown(wendy, MSG.payouts.sent(formatCents(amount)))).toBe(1);

    // The simulator's balance of Wendy's account went down by the payout and its fee.
    const after = await callApi<InstantPayoutAvailability>('GET', '/me/payouts/instant', wendyToken);
    expect(after.instantAvailable).toBe(before.instantAvailable - amount - fee);
    expect(after.payouts[0]).toMatchObject({ amount, fee });
    // Paid once Stripe's payout.paid came through the webhook.
    await eventually(async () => (await callApi<InstantPayoutAvailability>('GET', '/me/payouts/instant', wendyToken)).payouts[0]?.status).toBe('paid');
    await eventually(() => section.getByText(`(fee ${formatCents(fee)})`, { exact: false }).count()).toBeGreaterThan(0);
    // Nothing overflows the phone's width.
    expect(await wendy.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('checks which fast payouts the payout account takes, with the spec texts for success and failure', async () => {
    const context = await browser().newContext({ viewport: PHONE });
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    await wendy.goto(webUrl('/worker-earnings'));
    const options = wendy.getByRole('region', { name: 'Payout Options', exact: true });
    const check = options.getByRole('button', { name: MSG.payments.checkCapabilities });
    await check.click();
    await eventually(toastShown(wendy, MSG.payments.capabilitiesChecked)).toBe(1);
    // Her payout destination is an instant-capable debit card: Instant (and so a same-day payout) yes, Express (a US bank account) no.
    const availability = (name: string) => options.getByRole('listitem').filter({ has: wendy.getByRole('heading', { name, exact: true }) }).locator('.payout-option__availability').innerText();
    await eventually(() => availability('Instant')).toBe(MSG.payments.payoutOptionAvailable);
    expect(await availability('Express')).toBe(MSG.payments.payoutOptionUnavailable);
    expect(await availability('Standard')).toBe(MSG.payments.payoutOptionAvailable);
    expect(await options.getByText(MSG.payments.standardPayoutsOnly).count()).toBe(0);

    // Stripe cannot be asked (the API fails): the spec's failure text.
    await wendy.route('**/payments/account/status', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: MSG.payments.unavailable }) }));
    await check.click();
    await eventually(toastShown(wendy, MSG.payments.capabilitiesCheckFailed)).toBe(1);
    await context.close();
  });
});
