import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JobDetail, PublicProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { formatCents } from '../../shared/money.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

/** Waits for what the browser shows: pages and pushes take a moment on the local stack. */

/** Whether `text` shows up as a toast (toasts stay a few seconds). */
const toastShown = (page: Page, text: string) => () => page.locator('.toast', { hasText: text }).count();

/** The side column's card named `heading` ('Posted By', 'Assigned Worker'). */
const sideCard = (page: Page, heading: string) => page.getByRole('complementary', { name: 'About this job' }).getByRole('region', { name: heading });

async function apply(page: Page, message: string): Promise<void> {
  await page.getByLabel('Message to the poster (optional)').fill(message);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect.poll(toastShown(page, MSG.applications.submitted)).toBe(1);
  await expect.poll(() => page.locator('.application-status').innerText()).toBe('pending');
}

async function review(page: Page, stars: string, comment: string): Promise<void> {
  await page.getByRole('button', { name: 'Submit Review' }).click();
  await expect.poll(() => page.getByText(MSG.reviews.ratingRequired).count()).toBe(1);
  await page.getByRole('radio', { name: stars, exact: true }).check();
  await page.getByLabel('Comment (optional)').fill(comment);
  expect(await page.getByText(`${comment.length}/500`).count()).toBe(1);
  await page.getByRole('button', { name: 'Submit Review' }).click();
  await expect.poll(toastShown(page, MSG.reviews.submitted)).toBe(1);
  await expect.poll(() => page.getByText(`You rated ${stars}`).count()).toBe(1);
}

/** How the job page writes a profile's rating: floor(rating) stars of 5, the average with one decimal, the review count. */
function ratingText({ rating, reviewCount }: PublicProfile): string {
  const stars = Math.floor(rating ?? 0);
  return `${'★'.repeat(stars)}${'☆'.repeat(5 - stars)} ${rating?.toFixed(1)} out of 5 (${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'})`;
}

describe('the job lifecycle in a browser', () => {
  const browser = useBrowser();

  it('takes a job from two applications through acceptance, a declined completion and the release to both reviews', async () => {
    const paulaToken = await idTokenOf('paula@oddjobs.test');
    const title = `Oil a garden bench ${randomUUID().slice(0, 4)}`;
    const job = await postPaidJob(paulaToken, title);
    const jobUrl = webUrl(`/jobs/${job.id}`);

    const contexts = await Promise.all([0, 1, 2].map(() => browser().newContext({ viewport: { width: 1280, height: 900 } })));
    const [paula, wendy, marco] = await Promise.all([
      signedInPage(contexts[0]!, 'paula@oddjobs.test'),
      signedInPage(contexts[1]!, 'wendy@oddjobs.test'),
      signedInPage(contexts[2]!, 'marco@oddjobs.test'),
    ]);

    // Both workers apply: the counts and the remaining spots follow.
    await wendy.goto(jobUrl);
    await expect.poll(() => wendy.getByText('0/4').count()).toBe(1);
    expect(await wendy.getByText('4 spots remaining').count()).toBe(1);
    await apply(wendy, 'I have refinished a dozen benches.');
    await marco.goto(jobUrl);
    await expect.poll(() => marco.getByText('3 spots remaining').count()).toBe(1);
    await apply(marco, 'Available this weekend.');

    // The poster's tabs: the applications with their pending mark, reached with the arrow key.
    await paula.goto(jobUrl);
    const applicationsTab = paula.getByRole('tab', { name: /^Applications \(2\)\s*2 pending$/ });
    await expect.poll(() => applicationsTab.count()).toBe(1);
    await paula.getByRole('tab', { name: 'Job Details' }).focus();
    await paula.keyboard.press('ArrowRight');
    // The page keeps its tab in the address: the selection lands with the navigation.
    await expect.poll(() => applicationsTab.getAttribute('aria-selected')).toBe('true');
    const applicants = paula.getByRole('tabpanel');
    expect(await applicants.getByRole('article', { name: 'Wendy Worker' }).getByText('I have refinished a dozen benches.').count()).toBe(1);
    expect(await applicants.getByRole('link', { name: 'Message Marco Diaz' }).getAttribute('href')).toMatch(
      new RegExp(`^/real-time-messages\\?job=${job.id}&worker=`),
    );

    // Accepting Wendy assigns her and rejects Marco, who sees it without reloading.
    await paula.getByRole('button', { name: 'Accept Wendy Worker' }).click();
    await expect.poll(toastShown(paula, MSG.applications.accepted)).toBe(1);
    await expect.poll(() => marco.locator('.application-status').innerText()).toBe('rejected');
    await expect.poll(() => sideCard(paula, 'Assigned Worker').getByText('Wendy Worker').count()).toBe(1);

    // Wendy is congratulated once on her dashboard.
    await wendy.goto(webUrl('/worker-dashboard'));
    await expect.poll(() => wendy.getByRole('status', { name: 'Congratulations' }).getByText(title, { exact: false }).count()).toBe(1);
    await wendy.reload();
    await expect.poll(() => wendy.getByRole('heading', { name: 'Available Jobs' }).count()).toBe(1);
    expect(await wendy.getByRole('status', { name: 'Congratulations' }).count()).toBe(0);

    // Wendy marks it completed; Paula sees it live and declines with a reason.
    await wendy.goto(jobUrl);
    await wendy.getByRole('button', { name: 'Mark as Completed' }).click();
    await wendy.getByRole('dialog', { name: 'Mark this job as completed?' }).getByRole('button', { name: 'Mark completed' }).click();
    await expect.poll(toastShown(wendy, MSG.applications.markedCompleted)).toBe(1);
    const decline = paula.getByRole('button', { name: 'Decline Completion' });
    await expect.poll(() => decline.count()).toBe(1);
    expect(await decline.isDisabled()).toBe(true);
    await paula.getByLabel('Reason for declining').fill('The second chair still needs a coat.');
    await decline.click();
    await expect.poll(toastShown(paula, MSG.applications.completionDeclined)).toBe(1);

    // Wendy is told why, the job is hers again, and she completes it again.
    // On the job page's completion card (the notification's toast, and its notice on this page
    // once the live notification arrives, quote the reason too, in their own words).
    await expect
      .poll(() => wendy.getByRole('main').getByText(MSG.dashboard.declinedCompletion('The second chair still needs a coat.'), { exact: true }).count())
      .toBe(1);
    await expect.poll(() => wendy.getByRole('button', { name: 'Mark as Completed' }).count()).toBe(1);
    await wendy.getByRole('button', { name: 'Mark as Completed' }).click();
    await wendy.getByRole('dialog', { name: 'Mark this job as completed?' }).getByRole('button', { name: 'Mark completed' }).click();
    await expect.poll(toastShown(wendy, MSG.applications.markedCompleted)).toBe(1);

    // Paula releases the payment.
    const release = paula.getByRole('button', { name: 'Release Payment' });
    await expect.poll(() => release.count()).toBe(1);
    await release.click();
    // The confirmation names the amount and the worker; nothing moves before it is answered.
    const confirmRelease = paula.getByRole('dialog', { name: 'Release the payment?' });
    await expect.poll(() => confirmRelease.getByText(`${formatCents(job.payment)} goes to Wendy Worker.`, { exact: false }).count()).toBe(1);
    expect((await callApi<JobDetail>('GET', `/jobs/${job.id}`, paulaToken)).status).toBe('completed');
    await confirmRelease.getByRole('button', { name: `Release ${formatCents(job.payment)}` }).click();
    await expect.poll(toastShown(paula, MSG.payments.released)).toBe(1);

    // Both review each other; the ratings show on the job page.
    await expect.poll(() => paula.getByRole('heading', { name: 'Review Wendy Worker' }).count()).toBe(1);
    await review(paula, '5 stars', 'Careful work, great result.');
    // Hidden until Wendy reviews too (double-blind); Paula is told so.
    await expect.poll(() => paula.getByText(MSG.reviews.hiddenUntilBoth).count()).toBe(1);
    await wendy.reload();
    await expect.poll(() => wendy.getByRole('heading', { name: 'Review Paula Poster' }).count()).toBe(1);
    await review(wendy, '4 stars', 'Clear instructions, paid on time.');

    const { workerId } = await callApi<JobDetail>('GET', `/jobs/${job.id}`, paulaToken);
    const [wendyProfile, paulaProfile] = await Promise.all([
      callApi<PublicProfile>('GET', `/profiles/${workerId}`, paulaToken),
      callApi<PublicProfile>('GET', `/profiles/${job.posterId}`, paulaToken),
    ]);
    await paula.reload();
    await expect.poll(() => sideCard(paula, 'Assigned Worker').locator('.rating').textContent()).toBe(ratingText(wendyProfile));
    await expect.poll(() => sideCard(wendy, 'Posted By').locator('.rating').textContent()).toBe(ratingText(paulaProfile));
    // A review is final: the form is gone for both.
    expect(await paula.getByRole('button', { name: 'Submit Review' }).count()).toBe(0);
    expect(await wendy.getByRole('button', { name: 'Submit Review' }).count()).toBe(0);

    await Promise.all(contexts.map((context) => context.close()));
  });
});
