import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, NotificationPreferences, OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { channelsWithDefaults, DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_TYPE_LABELS } from '../../shared/notifications.js';
import { localClock } from '../../functions/notifications/local-clock.js';
import type { DigestOutcome } from '../../functions/location/nearby-digest.js';
import type { MailRequest } from '../../functions/notifications/notification-mail.js';
import { ZipCodeGeocoder } from '../../functions/lib/geocoder.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import type { Mail } from '../../infra/local/mailbox.js';
import { LOCAL_MAIL_FROM, recurringScheduleName } from '../../infra/local/stack.js';
import { createReadyUser, jobForm, postOpenJob } from '../support/job-lifecycle.js';
import { api, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { settle } from '../support/payments.js';

const ZONE = 'America/Chicago';

describe('notification email (issue 25)', { timeout: 120_000 }, () => {
  const stack = useLocalStack();

  /** The mailer's emails to a user (not the user pool's codes), newest first. */
  const emailsTo = (user: TestUser): Mail[] => stack().mailbox.list(user.email).filter((mail) => mail.from === LOCAL_MAIL_FROM);
  const notificationsOf = async (user: TestUser) => (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items;

  async function hire(poster: TestUser, worker: TestUser, decision: 'accept' | 'reject' = 'accept') {
    const job = await postOpenJob(stack(), poster);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/${decision}`, { token: poster.idToken })).status).toBe(200);
    await settle(stack());
    return job;
  }

  const savePreferences = async (user: TestUser, preferences: Partial<NotificationPreferences>) => {
    const saved = await api<OwnProfile>(stack(), 'PUT', '/me/notification-preferences', { token: user.idToken, body: { ...DEFAULT_NOTIFICATION_PREFERENCES, ...preferences } });
    expect(saved.status).toBe(200);
    return saved.body;
  };

  it('emails the hired worker once, text and HTML from one template, with a link to the job and RFC 8058 one-click unsubscribe headers', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await hire(poster, worker);

    const [accepted] = (await notificationsOf(worker)).filter((notification) => notification.type === 'application_accepted');
    const [email, ...more] = emailsTo(worker);
    expect(more).toEqual([]);
    expect(email).toMatchObject({ to: worker.email, from: LOCAL_MAIL_FROM, subject: accepted!.title });
    const jobUrl = `http://127.0.0.1:5173/jobs/${job.id}`;
    expect(email!.text).toContain(accepted!.message);
    expect(email!.text).toContain(`View the job: ${jobUrl}`);
    expect(email!.html).toContain(`href="${jobUrl}"`);
    expect(email!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(email!.headers!['List-Unsubscribe']).toMatch(new RegExp(`^<${stack().urls.api}/unsubscribe\\?token=[\\w.%-]+>$`));
    // The poster's only email is the application's; nothing of the acceptance went to them.
    expect(emailsTo(poster).map((mail) => mail.subject)).toEqual([MSG.applications.newApplicantTitle]);
  });

  it("emails the poster once per application, linking to the job's applicants, unless they turned that email off", async () => {
    const [poster, first, second] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster);
    const apply = (worker: TestUser) => api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    expect((await Promise.all([apply(first), apply(first)])).map((answer) => answer.status).sort()).toEqual([201, 409]);
    await settle(stack());

    const [notice, ...otherNotices] = (await notificationsOf(poster)).filter((notification) => notification.type === 'new_applicant');
    expect(otherNotices).toEqual([]);
    expect(notice).toMatchObject({ jobId: job.id, title: MSG.applications.newApplicantTitle, metadata: { worker_id: first.userId } });
    const [email, ...more] = emailsTo(poster);
    expect(more).toEqual([]);
    expect(email).toMatchObject({ to: poster.email, subject: MSG.applications.newApplicantTitle });
    const applicantsUrl = `http://127.0.0.1:5173/jobs/${job.id}?tab=applications`;
    expect(email!.text).toContain(notice!.message);
    expect(email!.text).toContain(`Review the applicants: ${applicantsUrl}`);
    expect(email!.html).toContain(`href="${applicantsUrl}"`);
    expect(email!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // Email off for applicants: the next one is in the app only.
    await savePreferences(poster, { channels: { ...channelsWithDefaults(undefined), new_applicant: { inApp: true, email: false, push: false } } });
    expect((await apply(second)).status).toBe(201);
    await settle(stack());
    expect((await notificationsOf(poster)).filter((notification) => notification.type === 'new_applicant')).toHaveLength(2);
    expect(emailsTo(poster)).toHaveLength(1);
  });

  it('sends a notification once however often its message comes (a retried or duplicated queue message)', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    await hire(poster, worker);
    const [accepted] = (await notificationsOf(worker)).filter((notification) => notification.type === 'application_accepted');
    const request: MailRequest = { userId: worker.userId, notification: accepted! };
    const sqs = new SQSClient({});
    await Promise.all([1, 2, 3].map(() => sqs.send(new SendMessageCommand({ QueueUrl: stack().queues.queueUrls.mailer, MessageBody: JSON.stringify(request) }))));
    await settle(stack());
    expect(emailsTo(worker).map((mail) => mail.subject)).toEqual([accepted!.title]);
    const delivery = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.notificationDelivery(accepted!.id, 'email') }));
    expect(delivery.Item).toMatchObject({ type: 'notificationDelivery' });
  });

  it("honours the user's email choice per type and holds email back during quiet hours", async () => {
    const [poster, worker, sleeper] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const channels = channelsWithDefaults(undefined);
    await savePreferences(worker, { channels: { ...channels, application_accepted: { inApp: true, email: false, push: false } } });
    await hire(poster, worker);
    expect((await notificationsOf(worker)).map((notification) => notification.type)).toContain('application_accepted');
    expect(emailsTo(worker)).toEqual([]);
    // Another type still comes by email.
    await hire(poster, worker, 'reject');
    expect(emailsTo(worker).length).toBe(1);

    // Quiet from a minute ago to two minutes before that (all day but a minute), in the user's zone.
    expect((await api(stack(), 'PUT', '/me/location', { token: sleeper.idToken, body: { zip: '78701', timeZone: ZONE } })).status).toBe(200);
    const now = localClock(new Date(), ZONE).minuteOfDay;
    const hhmm = (minute: number) => `${String(Math.floor(((minute + 1440) % 1440) / 60)).padStart(2, '0')}:${String((minute + 1440) % 60).padStart(2, '0')}`;
    await savePreferences(sleeper, { quietHours: { enabled: true, start: hhmm(now - 1), end: hhmm(now - 2) } });
    const delayedBefore = stack().queues.delayedCount();
    await hire(poster, sleeper);
    expect(emailsTo(sleeper)).toEqual([]);
    expect(stack().queues.delayedCount()).toBe(delayedBefore + 1);
  });

  it("holds a poster's email in the poster's own quiet hours, which run in the zone their browser sent with them (a poster saves no location)", async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const zone = 'America/Los_Angeles';
    const hhmm = (minute: number) => `${String(Math.floor(((minute + 1440) % 1440) / 60)).padStart(2, '0')}:${String((minute + 1440) % 60).padStart(2, '0')}`;
    // Quiet for the next few minutes of Los Angeles' clock, hours away from UTC's.
    const now = localClock(new Date(), zone).minuteOfDay;
    const saved = await savePreferences(poster, { quietHours: { enabled: true, start: hhmm(now - 1), end: hhmm(now + 5) }, timeZone: zone } as Partial<NotificationPreferences>);
    expect(saved).toMatchObject({ timeZone: zone, latitude: null });
    const job = await postOpenJob(stack(), poster);
    const delayedBefore = stack().queues.delayedCount();
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    await settle(stack());
    expect((await notificationsOf(poster)).map((notification) => notification.type)).toContain('new_applicant');
    expect(emailsTo(poster)).toEqual([]);
    expect(stack().queues.delayedCount()).toBe(delayedBefore + 1);
  });

  /** The evening came: the worker's digest is due now (its index key says when); `alsoRemove` clears more of it. */
  const makeDigestDue = (worker: TestUser, alsoRemove?: string) =>
    tableClient(stack()).send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.nearbyDigest(worker.userId),
        UpdateExpression: `SET gsi2sk = :due${alsoRemove ? ` REMOVE ${alsoRemove}` : ''}`,
        ExpressionAttributeValues: { ':due': `${new Date(Date.now() - 60_000).toISOString()}#${worker.userId}` },
      }),
    );
  /** What a mail client's one-click unsubscribe (RFC 8058) posts to the email's List-Unsubscribe link: its status. */
  const unsubscribeByOneClick = async (mail: Mail) => {
    const link = new URL(/^<(.+)>$/.exec(mail.headers!['List-Unsubscribe']!)![1]!);
    return (await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })).status;
  };
  /** The hourly digest run, as the scheduler invokes it. */
  const runDigests = () => stack().functions.invoke(recurringScheduleName('nearbyDigest'), RECURRING_SCHEDULES.nearbyDigest, {}) as Promise<Partial<Record<DigestOutcome, number>>>;

  it('emails new nearby jobs in one digest once due, at most once a day, and its one-click unsubscribe stops only the nearby digest', async () => {
    const jobPoint = (await new ZipCodeGeocoder().geocode(jobForm.address))!;
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    expect((await api(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { ...jobPoint, timeZone: ZONE } })).status).toBe(200);
    const first = await postOpenJob(stack(), poster);
    const second = await postOpenJob(stack(), poster);
    await settle(stack());
    // Nearby jobs are not emailed one by one: both wait in the worker's digest, due this evening or the next.
    expect(emailsTo(worker)).toEqual([]);
    const digestKey = keys.nearbyDigest(worker.userId);
    const waiting = (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: digestKey }))).Item!;
    // In the order their alerts arrived, which the two posts' concurrent alert runs do not fix.
    expect(waiting.jobs.map((job: { jobId: string }) => job.jobId).sort()).toEqual([first.id, second.id].sort());
    expect(Date.parse(waiting.gsi2sk.split('#')[0])).toBeGreaterThan(Date.now());

    // The evening came, and the hourly run sends the digest.
    await makeDigestDue(worker);
    expect(await runDigests()).toEqual({ sent: 1 });
    const [digest, ...more] = emailsTo(worker);
    expect(more).toEqual([]);
    expect(digest!.subject).toBe(MSG.notifications.digestTitle(2));
    for (const job of [first, second]) {
      expect(digest!.text).toContain(`http://127.0.0.1:5173/jobs/${job.id}`);
      expect(digest!.html).toContain(`href="http://127.0.0.1:5173/jobs/${job.id}"`);
    }
    expect(digest!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(await runDigests()).toEqual({});

    // A third job the same day waits for tomorrow's digest: one a day in the worker's zone.
    await postOpenJob(stack(), poster);
    await settle(stack());
    await makeDigestDue(worker);
    expect(await runDigests()).toEqual({ held: 1 });
    expect(emailsTo(worker).length).toBe(1);

    // The digest's one-click unsubscribe turns off nearby jobs by email and nothing else; what waited is dropped.
    expect(await unsubscribeByOneClick(digest!)).toBe(200);
    const channels = (await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body.notificationPreferences.channels;
    const defaults = channelsWithDefaults(undefined);
    expect(channels).toEqual({ ...defaults, new_job_nearby: { ...defaults.new_job_nearby, email: false } });
    expect(await runDigests()).toEqual({ dropped: 1 });
  });

  it("emails the jobs a worker's saved searches matched, with nearby alerts off, as a saved-search digest whose one-click unsubscribe stops only those", async () => {
    const jobPoint = (await new ZipCodeGeocoder().geocode(jobForm.address))!;
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    expect((await api(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { ...jobPoint, timeZone: ZONE } })).status).toBe(200);
    await savePreferences(worker, { enabled: false });
    expect((await api(stack(), 'POST', '/me/saved-searches', { token: worker.idToken, body: { text: 'shed', radiusMiles: 10 } })).status).toBe(201);
    const job = await postOpenJob(stack(), poster);
    await settle(stack());
    await makeDigestDue(worker);
    expect(await runDigests()).toEqual({ sent: 1 });
    const [digest, ...more] = emailsTo(worker);
    expect(more).toEqual([]);
    // Not "near you": nearby alerts are off; the job is there because a saved search matched it.
    expect(digest!.subject).toBe(MSG.search.digestTitle(1));
    expect(digest!.text).toContain(MSG.search.digestIntro);
    expect(digest!.text).toContain(`- ${job.title} ${MSG.search.digestJobDetail(job.location)}: `);
    expect(digest!.text).toContain(NOTIFICATION_TYPE_LABELS.saved_search_match);

    expect(await unsubscribeByOneClick(digest!)).toBe(200);
    const channels = (await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body.notificationPreferences.channels;
    const defaults = channelsWithDefaults(undefined);
    expect(channels).toEqual({ ...defaults, saved_search_match: { ...defaults.saved_search_match, email: false } });
  });

  it('leaves out of the digest the jobs taken or deleted since their alert, and sends none when none is left', async () => {
    const jobPoint = (await new ZipCodeGeocoder().geocode(jobForm.address))!;
    const [poster, laterPoster, worker, hired] = await Promise.all([
      createReadyUser(stack(), 'poster'),
      createReadyUser(stack(), 'poster'),
      createReadyUser(stack(), 'worker'),
      createReadyUser(stack(), 'worker'),
    ]);
    expect((await api(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { ...jobPoint, timeZone: ZONE } })).status).toBe(200);
    const [open, taken, deleted] = [await postOpenJob(stack(), poster), await postOpenJob(stack(), poster), await postOpenJob(stack(), poster)];
    await settle(stack());
    // After their alerts: one job goes to another worker, one is deleted by its poster.
    expect((await api(stack(), 'POST', `/jobs/${taken.id}/applications`, { token: hired.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${taken.id}/applications/${hired.userId}/accept`, { token: poster.idToken })).status).toBe(200);
    expect((await api(stack(), 'DELETE', `/jobs/${deleted.id}`, { token: poster.idToken })).status).toBe(204);
    await settle(stack());
    await makeDigestDue(worker);
    expect(await runDigests()).toEqual({ sent: 1 });
    const [digest, ...more] = emailsTo(worker);
    expect(more).toEqual([]);
    expect(digest!.subject).toBe(MSG.notifications.digestTitle(1));
    expect(digest!.text).toContain(`/jobs/${open.id}`);
    for (const gone of [taken, deleted]) expect(digest!.text).not.toContain(`/jobs/${gone.id}`);

    // The next day's digest would hold only a job deleted since: nothing is sent, and nothing waits.
    // (Another poster's: the first has made as many payment attempts as it may for now.)
    const late = await postOpenJob(stack(), laterPoster);
    await settle(stack());
    expect((await api(stack(), 'DELETE', `/jobs/${late.id}`, { token: laterPoster.idToken })).status).toBe(204);
    await makeDigestDue(worker, 'lastSentAt');
    expect(await runDigests()).toEqual({ dropped: 1 });
    expect(emailsTo(worker).length).toBe(1);
    expect((await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.nearbyDigest(worker.userId) }))).Item!.jobs).toBeUndefined();
  });

  it('unsubscribes from one type by the link alone, without signing in, and refuses a forged link', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    await hire(poster, worker);
    const link = /^<(.+)>$/.exec(emailsTo(worker)[0]!.headers!['List-Unsubscribe']!)![1]!;
    const path = new URL(link).pathname + new URL(link).search;

    // A mail client's one-click POST (RFC 8058): no token of a user, a form body.
    const oneClick = await fetch(`${stack().urls.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    const profile = (await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body;
    const before = channelsWithDefaults(undefined);
    expect(profile.notificationPreferences.channels).toEqual({ ...before, application_accepted: { ...before.application_accepted, email: false } });

    // The same type no longer comes by email; in the app it still does.
    await hire(poster, worker);
    expect(emailsTo(worker).length).toBe(1);
    expect((await notificationsOf(worker)).filter((notification) => notification.type === 'application_accepted').length).toBe(2);

    // A token for another type with this one's signature, or no token: refused, nothing changed.
    const token = new URL(link).searchParams.get('token')!;
    const [, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ u: worker.userId, t: 'payment_released' })).toString('base64url');
    for (const query of [`?token=${forgedPayload}.${signature}`, '', '?token=nonsense']) {
      const refused = await api<{ error: string }>(stack(), 'POST', `/unsubscribe${query}`, {});
      expect(refused).toMatchObject({ status: 400, body: { error: MSG.unsubscribe.invalidLink } });
    }
    expect((await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body.notificationPreferences.channels.payment_released.email).toBe(true);
  });
});
