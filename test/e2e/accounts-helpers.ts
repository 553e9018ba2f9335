import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Role } from '../../shared/roles.js';
import { readCodeFromMailbox, webUrl } from './browser.js';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

export interface Account {
  name: string;
  email: string;
  password: string;
  role: Role;
}

export function newAccount(role: Role, name: string): Account {
  return { name, email: `${role}-${randomUUID().slice(0, 8)}@example.com`, password: 'a-good-password-1', role };
}

/** Reads the newest code mailed to `email` in a tab of its own, as a person would. */
export async function codeFromMailbox(context: BrowserContext, email: string): Promise<string> {
  const mailbox = await context.newPage();
  try {
    return await readCodeFromMailbox(mailbox, email);
  } finally {
    await mailbox.close();
  }
}

/** Sign-up through the form and verification with the mailed code; ends on the sign-in screen. */
export async function signUpAndVerify(page: Page, account: Account): Promise<void> {
  await page.goto(webUrl(`/sign-up?role=${account.role}`));
  await page.getByLabel('Full Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  expect(await page.getByLabel('Account Type').inputValue()).toBe(account.role);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(/\/verify-email$/);
  await page.getByLabel('Verification Code').fill(await codeFromMailbox(page.context(), account.email));
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await page.waitForURL(/\/sign-in$/);
}

/** Fills and sends the sign-in form of the page that is open, and leaves the outcome to the caller (sign-in.ts waits for success). */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Waits until the text is on the page (toasts, messages that appear after a call). */
export async function expectText(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByText(text).count()).toBeGreaterThan(0);
}

/**
 * Axe's serious and critical violations on the page at rest, as "rule: target" lines. Transitions
 * are ended first: a button whose state just changed (e.g. enabled once a count arrives) fades
 * its colours for a quarter second, and axe would measure the contrast halfway.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const rest = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const results = await new AxeBuilder({ page }).analyze();
  await rest.evaluate((style) => (style as HTMLStyleElement).remove());
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}${violation.id === 'color-contrast' ? ` (${node.failureSummary?.split('\n').at(-1)?.trim()})` : ''}`));
}
