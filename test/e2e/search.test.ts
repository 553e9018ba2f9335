import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

/** The distances the grid's cards show, in their order ("3.2 mi" -> 3.2). */
async function shownDistances(page: Page): Promise<number[]> {
  return (await page.locator('.job-grid .job-card__distance').allInnerTexts()).map((text) => Number.parseFloat(text));
}

async function search(page: Page, words: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search jobs' }).fill(words);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

describe('finding work in a browser (issue 46)', () => {
  const browser = useBrowser();

  it('finds a job through a typo and marks the words it matched, sorts and filters near me, and shows the jobs on a map whose pins open cards (390 px)', async () => {
    const context = await browser().newContext({ viewport: PHONE });
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    await wendy.goto(webUrl('/'));

    await search(wendy, 'hedgs');
    const card = wendy.locator('.job-grid .job-card', { hasText: 'Trim hedges along a driveway' });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('mark').first().innerText()).toBe('hedges');
    expect(await wendy.locator('.job-grid .job-card').count()).toBe(1);

    // Near me, from Wendy's saved location downtown: every open job, nearest first, each with its distance.
    await search(wendy, '');
    await wendy.getByRole('button', { name: MSG.search.nearMe }).click();
    await expect.poll(async () => (await shownDistances(wendy)).length).toBeGreaterThan(3);
    const distances = await shownDistances(wendy);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(wendy.url()).toContain('near=me');

    // Within a radius: the leaking faucet (Woodhollow Dr, about 6 miles north) is beyond 5 miles and within 10.
    const faucet = wendy.locator('.job-grid .job-card', { hasText: 'Fix a leaking kitchen faucet' });
    await search(wendy, 'faucet');
    await expect.poll(() => faucet.count()).toBe(1);
    const miles = Number.parseFloat(await faucet.locator('.job-card__distance').innerText());
    expect(miles).toBeGreaterThan(5);
    expect(miles).toBeLessThanOrEqual(10);
    await wendy.getByLabel(MSG.search.radiusLabel).selectOption(String(5));
    await expect.poll(() => wendy.getByText(MSG.jobs.noSearchResults).count()).toBe(1);
    await wendy.getByLabel(MSG.search.radiusLabel).selectOption(String(10));
    await expect.poll(() => faucet.count()).toBe(1);
    expect(wendy.url()).toContain('radius=10');
    const within = await shownDistances(wendy);

    // The map: a pin per job found (by its title), each opening the job's card under the map.
    await wendy.getByRole('button', { name: MSG.search.showMap }).click();
    const map = wendy.getByRole('region', { name: MSG.search.mapLabel });
    await map.waitFor();
    const pins = map.locator('button.map-pin');
    await expect.poll(() => pins.count()).toBe(within.length);
    const firstTitle = await wendy.locator('.job-grid .job-card__title').first().innerText();
    await map.getByRole('button', { name: new RegExp(`^${firstTitle}`) }).click();
    const opened = wendy.locator('.results-map__selected');
    await expect.poll(() => opened.getByRole('link', { name: firstTitle }).count()).toBe(1);
    expect(await seriousAxeViolations(wendy)).toEqual([]);
    await context.close();
  });

  it('saves a search, alerts its worker when a matching job opens, and removes it from the settings page (desktop)', async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const wendy = await signedInPage(context, 'wendy@oddjobs.test');
    const word = `gazebo${randomUUID().slice(0, 4)}`;
    await wendy.goto(webUrl(`/?q=${word}&near=me&radius=25`));
    await expect.poll(() => wendy.getByText(MSG.jobs.noSearchResults).count()).toBe(1);
    await wendy.getByRole('button', { name: MSG.search.saveSearch }).click();
    await expect.poll(toastShown(wendy, MSG.search.searchSaved)).toBe(1);

    // Round Rock: 17 miles from Wendy, beyond her nearby-job alerts' 10 but within the search's 25.
    const omar = await idTokenOf('omar@oddjobs.test');
    const job = await postPaidJob(omar, `Build a ${word} in the backyard`, undefined, { street: '1 Main St', city: 'Round Rock', state: 'TX' });
    await wendy.goto(webUrl('/notifications'));
    const alert = wendy.locator('.notification-entry', { hasText: `Build a ${word} in the backyard (Round Rock, TX) matches your saved search` });
    await expect
      .poll(async () => {
        await wendy.reload();
        await wendy.locator('.notification-entry').first().waitFor();
        return alert.count();
      })
      .toBe(1);
    expect(await alert.innerText()).toContain(MSG.search.alertTitle);

    await wendy.goto(webUrl('/notification-settings'));
    const described = MSG.search.describe({ text: word, category: null, radiusMiles: 25 });
    const saved = wendy.locator('.saved-searches__item', { hasText: described });
    await expect.poll(() => saved.count()).toBe(1);
    await saved.getByRole('button', { name: `${MSG.search.removeSavedSearch} ${described}` }).click();
    await expect.poll(toastShown(wendy, MSG.search.savedSearchRemoved)).toBe(1);
    expect(await saved.count()).toBe(0);

    await callApi('DELETE', `/jobs/${job.id}`, omar);
    await context.close();
  });
});
