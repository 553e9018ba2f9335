import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { JobSummary, Page as ResultPage } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { useBrowser, webUrl } from './browser.js';
import { idTokenOf } from './api-helpers.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and pushes take a moment on the local stack. */

/** The number on the header's Messages badge (0 when hidden). */
async function headerUnread(page: Page): Promise<number> {
  const badge = page.locator('.site-header .messages-link .badge-count');
  if ((await badge.count()) === 0) return 0;
  return Number.parseInt((await badge.innerText()).trim(), 10);
}

/** The server's unread total for a demo user: what their badge settles on. */
async function serverUnread(email: string): Promise<number> {
  const response = await fetch(`${inject('runtimeConfig').apiUrl}/me/unread-messages`, { headers: { authorization: `Bearer ${await idTokenOf(email)}` } });
  return ((await response.json()) as { total: number }).total;
}

async function demoJobId(title: string): Promise<string> {
  const response = await fetch(`${inject('runtimeConfig').apiUrl}/jobs?q=${encodeURIComponent(title)}`);
  const page = (await response.json()) as ResultPage<JobSummary>;
  const job = page.items.find((item) => item.title === title);
  if (!job) throw new Error(`demo job "${title}" not found`);
  return job.id;
}

describe('live messaging between two people', () => {
  const browser = useBrowser();

  it('a worker asks a question, the poster sees the badge move, reads and answers live', async () => {
    const jobId = await demoJobId('Assemble an IKEA wardrobe');
    const [workerContext, posterContext] = await Promise.all([browser().newContext(), browser().newContext()]);
    const [worker, poster] = await Promise.all([signedInPage(workerContext, 'wendy@oddjobs.test'), signedInPage(posterContext, 'omar@oddjobs.test')]);
    const [posterUnreadBefore, workerUnreadBefore] = await Promise.all([serverUnread('omar@oddjobs.test'), serverUnread('wendy@oddjobs.test')]);
    await expect.poll(() => headerUnread(poster)).toBe(posterUnreadBefore);

    // The worker starts the conversation from the job page and asks.
    await worker.goto(webUrl(`/jobs/${jobId}`));
    await worker.getByRole('link', { name: 'Ask a question' }).click();
    await worker.waitForURL(/\/real-time-messages\/[^/?]+$/);
    const composer = worker.getByLabel('Message', { exact: true });
    await composer.fill('Hi Omar! Is the wardrobe');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('the 2-door or 3-door PAX?');
    await composer.press('Enter');
    await expect.poll(() => worker.locator('.toast', { hasText: MSG.applications.questionSent }).count()).toBe(1);
    const sent = worker.locator('.bubble--mine').last();
    await expect.poll(() => sent.innerText()).toContain('Sent');
    expect(await sent.locator('.bubble__text').innerText()).toBe('Hi Omar! Is the wardrobe\nthe 2-door or 3-door PAX?');
    await expect.poll(() => headerUnread(worker)).toBe(workerUnreadBefore);

    // The poster, elsewhere in the app, sees the badge move without a reload.
    await expect.poll(() => headerUnread(poster)).toBe(posterUnreadBefore + 1);
    await poster.locator('.site-header .messages-link').click();
    const row = poster.getByRole('link', { name: /Wendy Worker/ }).filter({ hasText: 'Assemble an IKEA wardrobe' });
    await expect.poll(() => row.locator('.chat-list__unread').innerText()).toContain('1');
    await row.click();
    await expect.poll(() => poster.locator('.bubble--theirs').last().innerText()).toContain('3-door PAX?');
    // Opening it reads it: the poster's badge goes back, the worker's bubble turns to Read.
    await expect.poll(() => headerUnread(poster)).toBe(posterUnreadBefore);
    await expect.poll(() => sent.innerText()).toContain('Read');

    // The answer arrives live in the worker's open chat, which reads it at once.
    await poster.getByLabel('Message', { exact: true }).fill('The 3-door one, with sliding doors.');
    await poster.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => worker.locator('.bubble--theirs').last().innerText()).toContain('The 3-door one, with sliding doors.');
    await expect.poll(() => poster.locator('.bubble--mine').last().innerText()).toContain('Read');
    expect(await headerUnread(worker)).toBe(workerUnreadBefore);
    expect(await worker.locator('.bubble').allInnerTexts()).toHaveLength(2);

    await Promise.all([workerContext.close(), posterContext.close()]);
  });
});
