import type { BrowserContext, Page } from 'playwright-core';
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
