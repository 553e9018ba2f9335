import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { QUESTION_TEXTS } from '../../shared/questions.js';
import { DESKTOP, PHONE, seriousAxeViolations } from './accounts-helpers.js';
import { newReadyUser, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signIn, signedInPage } from './sign-in.js';

/** The job page's questions. */
const questionsOf = (page: Page) => page.getByRole('region', { name: QUESTION_TEXTS.heading, exact: true });

describe('public questions in a browser (issue 45)', () => {
  const browser = useBrowser();

  it('a worker at 390 px asks, the poster on desktop answers, the worker sees it live; another reports it and the admin removes the question, not the job', async () => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const [posterAccount, askerAccount, readerAccount] = await Promise.all([newReadyUser('Quinn Poster', 'poster'), newReadyUser(`Quentin Asker ${suffix}`), newReadyUser('Rita Reader')]);
    const job = await postPaidJob(posterAccount.token, `Oil a garden bench ${suffix}`);
    const jobPath = `/jobs/${job.id}`;

    // The worker asks; what would take the deal off the platform is refused before it is public.
    const asker = await (await browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage();
    await signIn(asker, askerAccount.email, askerAccount.password);
    await asker.goto(webUrl(jobPath));
    await expect.poll(() => questionsOf(asker).getByText(QUESTION_TEXTS.none).count()).toBe(1);
    await asker.getByLabel('Your question').fill('Call me on 512-555-0134 to sort it out');
    await questionsOf(asker).getByRole('button', { name: QUESTION_TEXTS.ask }).click();
    await expect.poll(() => questionsOf(asker).getByText(QUESTION_TEXTS.notPublic).count()).toBe(1);
    await asker.getByLabel('Your question').fill('Is the bench teak or pine?');
    await questionsOf(asker).getByRole('button', { name: QUESTION_TEXTS.ask }).click();
    await expect.poll(toastShown(asker, QUESTION_TEXTS.asked)).toBe(1);
    const asked = questionsOf(asker).getByRole('article', { name: `Question from Quentin Asker ${suffix}` });
    await expect.poll(() => asked.innerText()).toContain('Is the bench teak or pine?');
    expect(await seriousAxeViolations(asker)).toEqual([]);

    // The poster answers it on desktop; the worker's open page shows the answer without a reload.
    const poster = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(poster, posterAccount.email, posterAccount.password);
    await poster.goto(webUrl(jobPath));
    const toAnswer = questionsOf(poster).getByRole('article', { name: `Question from Quentin Asker ${suffix}` });
    await toAnswer.getByLabel('Your answer').fill('Teak, and the oil is in the shed.');
    await toAnswer.getByRole('button', { name: QUESTION_TEXTS.postAnswer }).click();
    await expect.poll(toastShown(poster, QUESTION_TEXTS.answered)).toBe(1);
    await expect.poll(() => asked.innerText(), { timeout: 15_000 }).toContain('Teak, and the oil is in the shed.');
    expect(await asked.innerText()).toContain(QUESTION_TEXTS.posterAnswer);

    // Another worker reports it; the admin removes the question and the job stays open.
    const reader = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(reader, readerAccount.email, readerAccount.password);
    await reader.goto(webUrl(jobPath));
    const seen = questionsOf(reader).getByRole('article', { name: `Question from Quentin Asker ${suffix}` });
    await seen.getByRole('button', { name: `${QUESTION_TEXTS.report} the question from Quentin Asker ${suffix}` }).click();
    const report = reader.getByRole('dialog', { name: 'Report this question' });
    await report.getByLabel('Reason').fill('Not about the job');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(toastShown(reader, MSG.flags.reported)).toBe(1);

    const admin = await signedInPage(await browser().newContext({ viewport: DESKTOP }), 'admin@oddjobs.test');
    await admin.goto(webUrl('/admin-dashboard?tab=flagged'));
    const flagged = admin.getByRole('row').filter({ hasText: job.title });
    await expect.poll(() => flagged.innerText()).toContain('Is the bench teak or pine?');
    await flagged.getByRole('button', { name: `Remove question ${job.title}` }).click();
    const removal = admin.getByRole('dialog', { name: 'Remove this question?' });
    await removal.getByLabel('Why it is removed (for the audit log)').fill('Reported, and off topic');
    await removal.getByRole('button', { name: 'Remove question' }).click();
    await expect.poll(toastShown(admin, MSG.admin.flagReviewed)).toBe(1);
    await expect.poll(() => questionsOf(asker).getByText(QUESTION_TEXTS.none).count(), { timeout: 15_000 }).toBe(1);
    await reader.reload();
    await expect.poll(() => reader.locator('.badge--open').count()).toBe(1);

    for (const page of [asker, poster, reader, admin]) await page.context().close();
  });
});
