import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { channelsWithDefaults, NOTIFICATION_TYPE_LABELS } from '../../shared/notifications.js';
import type { Mail } from '../../infra/local/mailbox.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { toastShown } from './jobs-helpers.js';
import { signedInPage } from './sign-in.js';

const WORKER = { email: 'marco@oddjobs.test', name: 'Marco Diaz' };

/** The local mailbox over HTTP, as a test reads it: the emails to one address, newest first. */
const mailsTo = async (email: string) => (await (await fetch(`${inject('mailboxUrl')}/messages.json?to=${encodeURIComponent(email)}`)).json()) as Mail[];

describe('notification email in a browser (issue 25)', () => {
  const browser = useBrowser();

  it("leads the poster from a new applicant's notification to the applicants, emails the worker they accept within seconds, and the email unsubscribes from that type alone without signing in", async () => {
    const title = `Hang three shelves ${randomUUID().slice(0, 6)}`;
    const [posterToken, workerToken] = await Promise.all([idTokenOf('omar@oddjobs.test'), idTokenOf(WORKER.email)]);
    const job = await postPaidJob(posterToken, title);
    await callApi('POST', `/jobs/${job.id}/applications`, workerToken, { message: 'I have a drill and a level.' });

    // The poster opens the new applicant's notification, which shows the job's applicants, and accepts.
    const posterContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const poster = await signedInPage(posterContext, 'omar@oddjobs.test');
    await poster.goto(webUrl('/notifications'));
    const notice = poster.getByRole('button').filter({ hasText: MSG.applications.newApplicantMessage(WORKER.name, title) });
    await expect.poll(() => notice.count(), { timeout: 15_000 }).toBe(1);
    await notice.click();
    await poster.waitForURL(webUrl(`/jobs/${job.id}?tab=applications`));
    await expect.poll(() => poster.getByRole('tab', { name: /^Applications/ }).getAttribute('aria-selected')).toBe('true');
    await poster.getByRole('button', { name: `Accept ${WORKER.name}` }).click();
    await expect.poll(toastShown(poster, MSG.applications.accepted)).toBe(1);
    await posterContext.close();

    // The worker's email arrives in the local mailbox: subject, text and HTML, the job's link, one-click headers.
    let email: Mail | undefined;
    await expect
      .poll(async () => {
        email = (await mailsTo(WORKER.email)).find((mail) => mail.text.includes(MSG.applications.acceptedMessage(title)));
        return email?.subject;
      }, { timeout: 15_000 })
      .toBe(MSG.applications.acceptedTitle);
    const jobLink = webUrl(`/jobs/${job.id}`);
    expect(email!.text).toContain(jobLink);
    expect(email!.html).toContain(`href="${jobLink}"`);
    expect(email!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'List-Unsubscribe': expect.stringMatching(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\?token=/) });

    // Its visible link opens the unsubscribe page, signed out, which asks before it stops anything.
    const unsubscribeLink = /Stop these emails: (\S+)/.exec(email!.text)![1]!;
    expect(unsubscribeLink.startsWith(webUrl('/unsubscribe?token='))).toBe(true);
    const visitorContext = await browser().newContext({ viewport: { width: 375, height: 740 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto(unsubscribeLink);
    const what = NOTIFICATION_TYPE_LABELS.application_accepted;
    await expect.poll(() => visitor.getByText(MSG.unsubscribe.question(what)).count()).toBe(1);
    await visitor.getByRole('button', { name: MSG.unsubscribe.confirm }).click();
    await expect.poll(() => visitor.getByRole('status').filter({ hasText: MSG.unsubscribe.done(what) }).count()).toBe(1);

    // A tampered link says so and changes nothing.
    await visitor.goto(webUrl('/unsubscribe?token=not-a-token'));
    await expect.poll(() => visitor.getByRole('alert').filter({ hasText: MSG.unsubscribe.invalidLink }).count()).toBe(1);
    await visitorContext.close();

    // That type stops by email, and nothing else changes; the settings page shows it.
    const profile = await callApi<OwnProfile>('GET', '/me', workerToken);
    const defaults = channelsWithDefaults(undefined);
    expect(profile.notificationPreferences.channels.application_accepted).toEqual({ ...defaults.application_accepted, email: false });
    expect(profile.notificationPreferences.channels.payment_released).toEqual(defaults.payment_released);
    const workerContext = await browser().newContext({ viewport: { width: 375, height: 740 } });
    const worker = await signedInPage(workerContext, WORKER.email);
    await worker.goto(webUrl('/notification-settings'));
    const box = (type: 'application_accepted' | 'payment_released' | 'new_job_nearby', channel: 'by email' | 'in the app') => worker.getByRole('checkbox', { name: `${NOTIFICATION_TYPE_LABELS[type]}: ${channel}` });
    await expect.poll(() => box('application_accepted', 'by email').count()).toBe(1);
    expect(await box('application_accepted', 'by email').isChecked()).toBe(false);
    expect(await box('application_accepted', 'in the app').isChecked()).toBe(true);
    expect(await box('payment_released', 'by email').isChecked()).toBe(true);
    // The nearby-jobs digest is a real choice, on by default.
    expect(await box('new_job_nearby', 'by email').isChecked()).toBe(true);
    await workerContext.close();
  });
});
