import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, inject, it } from 'vitest';
import type { OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { PHONE, newAccount, signUpAndVerify, submitSignIn } from './accounts-helpers.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signIn, signedInPage } from './sign-in.js';

describe('account deletion', () => {
  const browser = useBrowser();

  const idTokenWith = async (email: string, password: string) => {
    const config = inject('runtimeConfig');
    const result = await cognitoClient(config.userPoolEndpoint ?? '').send(
      new InitiateAuthCommand({ ClientId: config.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    return result.AuthenticationResult?.IdToken ?? '';
  };

  it("a worker deletes their account from the profile page, can no longer sign in, and their review shows 'Deleted user'", async () => {
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    const worker = newAccount('worker', 'Della Deleting');
    await signUpAndVerify(page, worker);
    const workerToken = await idTokenWith(worker.email, worker.password);

    // A job with Omar, worked, paid and reviewed both ways, set up through the API as the app does it.
    const link = await fetch(`${inject('runtimeConfig').apiUrl}/payments/account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workerToken}`, origin: webUrl('').replace(/\/$/, '') },
    });
    const { accountLinkUrl } = (await link.json()) as { accountLinkUrl: string };
    expect((await fetch(`${accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    // Stripe's account.updated webhook completes the account, a moment after the onboarding page.
    await expect.poll(async () => (await callApi<OwnProfile>('GET', '/me', workerToken)).paymentAccount.status).toBe('complete');
    const posterToken = await idTokenOf('omar@oddjobs.test');
    const job = await postPaidJob(posterToken, 'Oil the garden bench');
    await callApi('POST', `/jobs/${job.id}/applications`, workerToken, { message: 'Happy to help' });
    await callApi('POST', `/jobs/${job.id}/applications/${(await callApi<OwnProfile>('GET', '/me', workerToken)).id}/accept`, posterToken);
    await callApi('POST', `/jobs/${job.id}/complete`, workerToken);
    await callApi('POST', `/jobs/${job.id}/release-payment`, posterToken);
    await callApi('POST', `/jobs/${job.id}/reviews`, posterToken, { rating: 5, comment: 'Della did a lovely job' });
    const comment = `Omar was clear and kind ${job.id.slice(0, 6)}`;
    await callApi('POST', `/jobs/${job.id}/reviews`, workerToken, { rating: 5, comment });

    // The danger zone: a wrong password is refused in the dialog, the right one deletes.
    await signIn(page, worker.email, worker.password);
    await page.goto(webUrl('/profile'));
    await page.getByRole('region', { name: 'Danger Zone', exact: true }).getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect.poll(() => dialog.getByText(/Deleted user/).count()).toBeGreaterThan(0);
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe(MSG.accountDeletion.wrongPassword);
    await dialog.getByLabel('Password').fill(worker.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(toastShown(page, MSG.accountDeletion.deleted)).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/');
    // Signed out for good: no token is left in the browser, and the profile asks to sign in.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('CognitoIdentityServiceProvider.')))).toEqual([]);
    await page.goto(webUrl('/profile'));
    await page.waitForURL((url) => url.pathname === '/sign-in');

    // The sign-in is gone.
    await page.goto(webUrl('/sign-in'));
    await submitSignIn(page, worker.email, worker.password);
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();

    // Omar's reviews keep the worker's review, by 'Deleted user'.
    const omarContext = await browser().newContext({ viewport: PHONE });
    const omar = await signedInPage(omarContext, 'omar@oddjobs.test');
    await omar.goto(webUrl('/profile'));
    const review = omar.locator('li.review', { hasText: comment });
    await expect.poll(() => review.count()).toBe(1);
    expect(await review.innerText()).toContain('Deleted user');
    expect(await review.innerText()).not.toContain('Della');
    await omarContext.close();
  }, 180_000);
});
