import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { webUrl } from './browser.js';

/** Signs in through the sign-in screen, as a person would, and waits for the app to move on. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(webUrl('/sign-in'));
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/** A new page in `context` with `email` signed in. */
export async function signedInPage(context: BrowserContext, email: string): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** A demo user's ID token, from the user pool as the app signs in. */
export async function idTokenOf(email: string): Promise<string> {
  const config = inject('runtimeConfig');
  const result = await cognitoClient(config.userPoolEndpoint ?? '').send(
    new InitiateAuthCommand({
      ClientId: config.userPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
  return result.AuthenticationResult?.IdToken ?? '';
}
