import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Application, JobSummary } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { tipPresetCents } from '../../shared/tips.js';
import { TEST_CARDS as SERVER_CARDS } from '../support/payments.js';
import { DESKTOP, PHONE } from './accounts-helpers.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signedInPage } from './sign-in.js';

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** A job of Paula's, paid with `card`, that Wendy did and Paula released (through the API). */
async function releasedToWendy(title: string, card?: string): Promise<JobSummary> {
  const [paula, wendy] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('wendy@oddjobs.test')]);
  const job = await postPaidJob(paula, title, card);
  const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, wendy, {});
  await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, paula, {});
  await callApi('POST', `/jobs/${job.id}/complete`, wendy, {});
  return callApi<JobSummary>('POST', `/jobs/${job.id}/release-payment`, paula, {});
}

describe('tips in a browser', () => {
  const browser = useBrowser();

  it("lets the poster tip after release, confirmed naming the amount and the worker, and the tip reaches the worker's earnings", async () => {
    const title = `Clean the gutters ${randomUUID().slice(0, 6)}`;
    const job = await releasedToWendy(title);
    const tip = formatCents(tipPresetCents(job.payment, 20));
    const contexts = await Promise.all([browser().newContext({ viewport: PHONE }), browser().newContext({ viewport: DESKTOP })]);
    const [paula, wendy] = [await signedInPage(contexts[0]!, 'paula@oddjobs.test'), await signedInPage(contexts[1]!, 'wendy@oddjobs.test')];

    await paula.goto(webUrl(`/jobs/${job.id}`));
    const card = paula.getByRole('region', { name: 'Add a tip', exact: true });
    await card.getByRole('radio', { name: `20% (${tip})` }).check();
    await card.getByRole('button', { name: `Tip ${tip}` }).click();
    const dialog = paula.getByRole('dialog', { name: 'Add this tip?' });
    await eventually(() => dialog.getByText(`${tip} goes to Wendy Worker in full`).count()).toBe(1);
    await dialog.getByRole('button', { name: `Tip ${tip}` }).click();
    await eventually(toastShown(paula, MSG.tips.added(tip, 'Wendy Worker'))).toBe(1);
    await eventually(() => paula.getByText(`You tipped ${tip} to Wendy Worker. Thank you!`).count()).toBe(1);

    await wendy.goto(webUrl('/worker-earnings'));
    const row = wendy.getByRole('row').filter({ hasText: title });
    await eventually(() => row.getByRole('cell').last().innerText().catch(() => '')).toBe(tip);
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    await eventually(() => wendy.getByText(`The poster tipped you ${tip}.`).count()).toBe(1);
    await Promise.all(contexts.map((context) => context.close()));
  });

  it('sends the poster to the card step when the bank asks to authenticate the saved card, then adds the tip', async () => {
    const title = `Rake the leaves ${randomUUID().slice(0, 6)}`;
    const job = await releasedToWendy(title, SERVER_CARDS.alwaysAuthenticates);
    const context = await browser().newContext({ viewport: DESKTOP });
    const paula = await signedInPage(context, 'paula@oddjobs.test');
    await paula.goto(webUrl(`/jobs/${job.id}`));
    const card = paula.getByRole('region', { name: 'Add a tip', exact: true });
    await card.getByRole('radio', { name: 'Other amount' }).check();
    await card.getByLabel('Tip amount ($)').fill('5');
    await card.getByRole('button', { name: 'Tip $5.00' }).click();
    await paula.getByRole('dialog', { name: 'Add this tip?' }).getByRole('button', { name: 'Tip $5.00' }).click();

    const confirmStep = paula.getByRole('region', { name: 'Confirm your tip', exact: true });
    await eventually(() => confirmStep.getByText(MSG.tips.cardNeeded).count()).toBe(1);
    await payByCard(paula, TEST_CARDS.succeeds);
    await eventually(toastShown(paula, MSG.tips.added('$5.00', 'Wendy Worker'))).toBe(1);
    await eventually(() => paula.getByText('You tipped $5.00 to Wendy Worker. Thank you!').count()).toBe(1);
    await context.close();
  });
});
