import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';
import { e2eTarget } from './target.js';

export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('browser not started');
    return browser;
  };
}

export const webUrl = (path = '/') => `${e2eTarget().webUrl}${path}`;

/** Reads the newest code mailed to an address from the local mailbox page, as a person would. */
export async function readCodeFromMailbox(page: Page, email: string): Promise<string> {
  await page.goto(e2eTarget().mailboxUrl);
  const mail = page.locator('article', { hasText: email }).first();
  const text = await mail.locator('.code strong').innerText();
  return text.trim();
}
