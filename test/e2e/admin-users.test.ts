import type { Page, WebSocket } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { callApi, idTokenOf } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signIn, signedInPage } from './sign-in.js';

const PHONE_375 = { width: 375, height: 812 } as const;

/**
 * How wide the page is, and what sticks out past the screen's right edge without a scrolling box
 * to hold it (to say why). A box clips an absolutely positioned descendant only if it is, or
 * contains, that descendant's containing block: a visually hidden label in a wide table row
 * widens the page unless the table's scrolling box is positioned.
 */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (node: Node) => {
      let parent = node.parentElement;
      if (node instanceof HTMLElement && ['absolute', 'fixed'].includes(getComputedStyle(node).position)) {
        while (parent && parent !== document.body && getComputedStyle(parent).position === 'static') parent = parent.parentElement;
      }
      for (; parent && parent !== document.body; parent = parent.parentElement) if (getComputedStyle(parent).overflowX !== 'visible') return true;
      return false;
    };
    const culprits: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const { right } = element.getBoundingClientRect();
      if (right > width + 1 && !clipped(element)) culprits.push(`${element.tagName.toLowerCase()}.${String(element.className)} (${Math.round(right)} px)`);
    }
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const { right } = range.getBoundingClientRect();
      if (right > width + 1 && !clipped(node)) culprits.push(`"${(node.textContent ?? '').slice(0, 30)}" (${Math.round(right)} px)`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits: culprits.slice(0, 6) };
  });

describe("the admin's users in a browser", () => {
  const browser = useBrowser();

  it('finds a demo user by email prefix, suspends them (sign-in refused, open socket closed) and reinstates them', async () => {
    // Marco is signed in, with the app's live socket open.
    const marcoContext = await browser().newContext();
    const marco = await marcoContext.newPage();
    const sockets: WebSocket[] = [];
    marco.on('websocket', (socket) => sockets.push(socket));
    await signIn(marco, 'marco@oddjobs.test');
    await expect.poll(() => sockets.filter((socket) => !socket.isClosed()).length).toBeGreaterThan(0);
    const liveBefore = sockets.filter((socket) => !socket.isClosed());

    // The admin's mobile-menu section opens the Users tab; the search finds Marco by an email prefix.
    const admin = await signedInPage(await browser().newContext(), 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin/users'));
    await admin.waitForURL(/tab=users/);
    await admin.getByLabel('Name or email starts with').fill('MARCO@odd');
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = admin.getByRole('row').filter({ hasText: 'marco@oddjobs.test' });
    await expect.poll(() => admin.getByRole('row').count()).toBe(2);
    await rows.getByRole('link', { name: 'Marco Diaz' }).click();
    await admin.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    await expect.poll(() => admin.getByRole('heading', { level: 1 }).innerText()).toBe('Marco Diaz');
    await expect.poll(() => admin.getByRole('region', { name: 'Profile', exact: true }).innerText()).toContain('Payment account');
    const marcoId = new URL(admin.url()).pathname.split('/').pop() ?? '';
    // Marco is a demo user the other browser files sign in as: should a step below fail while he
    // is suspended, he is reinstated through the API so that one failure does not become five.
    let reinstated = false;
    try {

      // Suspending needs a reason.
      await admin.getByRole('button', { name: 'Suspend', exact: true }).click();
      const dialog = admin.getByRole('dialog', { name: 'Suspend Marco Diaz?' });
      await dialog.getByRole('button', { name: 'Suspend user' }).click();
      await expect.poll(() => dialog.getByRole('alert').innerText()).toBe(MSG.admin.userActionReasonRequired);
      await dialog.getByLabel('Reason').fill('Did not show up three times');
      await dialog.getByRole('button', { name: 'Suspend user' }).click();
      await expect.poll(toastShown(admin, MSG.admin.userSuspended('Marco Diaz'))).toBe(1);
      await expect.poll(() => admin.getByText('Suspended', { exact: true }).count()).toBeGreaterThan(0);
      await expect.poll(() => admin.getByRole('region', { name: 'Audit trail', exact: true }).innerText()).toContain('Did not show up three times');

      // His open page's socket is closed by the server, and his next sign-in is refused with a clear message.
      await expect.poll(() => liveBefore.every((socket) => socket.isClosed())).toBe(true);
      const again = await (await browser().newContext()).newPage();
      await again.goto(webUrl('/sign-in'));
      await again.getByLabel('Email', { exact: true }).fill('marco@oddjobs.test');
      await again.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await again.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect.poll(() => again.getByText(MSG.auth.accountSuspended).count()).toBe(1);
      expect(new URL(again.url()).pathname).toBe('/sign-in');

      // Reinstated, he signs in again.
      await admin.getByRole('button', { name: 'Reinstate', exact: true }).click();
      const reinstate = admin.getByRole('dialog', { name: 'Reinstate Marco Diaz?' });
      await reinstate.getByLabel('Reason').fill('Talked it through');
      await reinstate.getByRole('button', { name: 'Reinstate user' }).click();
      await expect.poll(toastShown(admin, MSG.admin.userReinstated('Marco Diaz'))).toBe(1);
      reinstated = true;
      await signIn(again, 'marco@oddjobs.test');
      expect(new URL(again.url()).pathname).not.toBe('/sign-in');
    } finally {
      if (!reinstated) await callApi('POST', `/admin/users/${marcoId}/reinstate`, await idTokenOf('admin@oddjobs.test'), { reason: 'Test cleanup' }).catch(() => undefined);
    }
    await marcoContext.close();
  });

  it('fits every admin tab and the user page in a 375 px screen, tables scrolling inside their cards', async () => {
    const context = await browser().newContext({ viewport: PHONE_375 });
    const admin = await signedInPage(context, 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard'));
    await expect.poll(() => admin.getByRole('tab').count()).toBeGreaterThanOrEqual(9);
    const tabs = await admin.getByRole('tab').allInnerTexts();
    for (const tab of tabs) {
      await admin.getByRole('tab', { name: tab, exact: true }).click();
      await expect.poll(() => admin.locator('.loading-state').count()).toBe(0);
      await expect.poll(() => admin.getByRole('tabpanel').locator('table, .empty-state, .money-overview').count()).toBeGreaterThan(0);
      expect({ tab, ...(await overflow(admin)) }).toEqual({ tab, scrollWidth: PHONE_375.width, culprits: [] });
    }
    await admin.getByRole('tab', { name: 'Users', exact: true }).click();
    await admin.getByRole('link', { name: 'Wendy' }).first().click();
    await expect.poll(() => admin.getByRole('region', { name: 'Payments', exact: true }).count()).toBe(1);
    expect({ page: 'user', ...(await overflow(admin)) }).toEqual({ page: 'user', scrollWidth: PHONE_375.width, culprits: [] });
  });
});
