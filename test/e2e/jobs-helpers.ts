import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { webUrl } from './browser.js';


const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Fills every required field of the job form (post or edit) for a $60 handyman job in Austin. */
export async function fillJobForm(page: Page, title: string): Promise<void> {
  await page.getByLabel('Job Title').fill(title);
  await page.getByLabel('Description').fill('Eight frames of different sizes on a plaster wall; level, anchors and a template are ready.');
  await page.getByLabel('Street Address').fill('77 Rainey St');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('State').fill('TX');
  await page.getByLabel('Payment ($)').fill('60');
  await page.getByLabel('Category').selectOption('Handyman');
  await page.getByLabel('Due Date').fill(inDays(4));
  await page.getByLabel('Duration').fill('2 hours');
}

/** Whether `text` shows up as a toast (toasts stay a few seconds). */
export const toastShown = (page: Page, text: string) => () => page.locator('.toast', { hasText: text }).count();

/** Deletes one of the poster's jobs from the poster dashboard, confirming in the dialog. */
export async function deleteFromDashboard(page: Page, title: string): Promise<void> {
  await page.goto(webUrl('/poster-dashboard'));
  await page.getByRole('button', { name: `Delete ${title}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this job?' });
  await dialog.getByRole('button', { name: 'Delete job' }).click();
  await expect.poll(toastShown(page, MSG.jobs.deleted)).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: `Edit ${title}`, exact: true }).count()).toBe(0);
}
