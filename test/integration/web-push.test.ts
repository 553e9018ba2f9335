import { createHash, randomUUID } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, ChannelChoices, NotificationType } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { localClock } from '../../functions/notifications/local-clock.js';
import { MAX_PUSH_SUBSCRIPTIONS } from '../../functions/notifications/push-subscriptions.js';
import { EVENT_SOURCE, NOTIFICATION_EVENT } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { BUS_NAME } from '../../infra/local/stack.js';
import type { ReceiverSubscription } from '../../infra/local/push-receiver.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';

describe('web push', () => {
  const stack = useLocalStack();

  const publicKey = async () => {
    const answer = await api<{ publicKey: string }>(stack(), 'GET', '/push/public-key');
    expect(answer).toMatchObject({ status: 200, body: { publicKey: expect.stringMatching(/^B[\w-]{86}$/) } });
    return answer.body.publicKey;
  };
  /** A subscription at the local receiver made with the server's VAPID key, saved for the user as a browser saves it. */
  async function subscribe(user: TestUser): Promise<ReceiverSubscription> {
    const subscription = stack().pushReceiver.subscribe(await publicKey());
    expect((await api(stack(), 'PUT', '/me/push-subscriptions', { token: user.idToken, body: subscription })).status).toBe(204);
    return subscription;
  }
  const choosePush = async (user: TestUser, types: NotificationType[], quietHours = DEFAULT_NOTIFICATION_PREFERENCES.quietHours) => {
    const channels = Object.fromEntries(types.map((type) => [type, { inApp: true, email: false, push: true } satisfies ChannelChoices]));
    const { channels: _defaults, ...withoutChannels } = DEFAULT_NOTIFICATION_PREFERENCES;
    expect((await api(stack(), 'PUT', '/me/notification-preferences', { token: user.idToken, body: { ...withoutChannels, quietHours, channels } })).status).toBe(200);
  };
  const received = (subscription: ReceiverSubscription) => stack().pushReceiver.received(subscription.endpoint).map((push) => JSON.parse(push.payload) as unknown);

  async function acceptedWorker() {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster);
    return { poster, worker, job };
  }
  const applyAndAccept = async ({ poster, worker, job }: Awaited<ReturnType<typeof acceptedWorker>>) => {
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken })).status).toBe(200);
    await stack().events.idle();
  };

  // The first test starts the functions of a whole job's way to an acceptance: cold starts on a busy machine.
  it('pushes a notification the user chose push for to their browser, encrypted for it and signed with the VAPID key, once', async () => {
    const parties = await acceptedWorker();
    const { worker, job } = parties;
    const browser = await subscribe(worker);
    await choosePush(worker, ['application_accepted']);

    await applyAndAccept(parties);
    // The receiver decrypted it with the subscription's private keys: the title, the message and the job it opens.
    expect(received(browser)).toEqual([{ title: MSG.applications.acceptedTitle, body: MSG.applications.acceptedMessage(job.title), url: `/jobs/${job.id}` }]);
    const [push] = stack().pushReceiver.received(browser.endpoint);
    expect(push).toMatchObject({ ttl: 86_400, subject: 'mailto:push@oddjobs.test' });

    // The event delivered again (EventBridge delivers at least once): not pushed twice.
    const [notification] = (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken })).body.items;
    await new EventBridgeClient({}).send(
      new PutEventsCommand({
        Entries: [{ EventBusName: BUS_NAME, Source: EVENT_SOURCE.notifications, DetailType: NOTIFICATION_EVENT.created, Detail: JSON.stringify({ userId: worker.userId, notification }) }],
      }),
    );
    await stack().events.idle();
    expect(received(browser)).toHaveLength(1);
    expect((await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.notificationDelivery(notification!.id, 'push') }))).Item).toBeDefined();
  }, 120_000);

  it('holds a push back during the quiet hours and pushes it once they are over, as email is', async () => {
    const parties = await acceptedWorker();
    const browser = await subscribe(parties.worker);
    // Quiet from the minute before to the minute after this one (no zone stored: UTC). Begun
    // late in a minute, the acceptance could fall in the next one, where the hours are over.
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000));
    const minute = localClock(new Date(), 'UTC').minuteOfDay;
    const hhmm = (at: number) => `${String(Math.floor(((at + 1440) % 1440) / 60)).padStart(2, '0')}:${String((at + 1440) % 60).padStart(2, '0')}`;
    await choosePush(parties.worker, ['application_accepted'], { enabled: true, start: hhmm(minute - 1), end: hhmm(minute + 1) });
    const delayedBefore = stack().queues.delayedCount();

    await applyAndAccept(parties);
    // Quiet: nothing pushed, the push waits in the mail queue until the hours end.
    expect(received(browser)).toEqual([]);
    expect(stack().queues.delayedCount()).toBe(delayedBefore + 1);

    // The quiet hours end within the minute; then the mailer pushes it, once.
    await expect.poll(() => received(browser), { timeout: 90_000, interval: 1000 }).toEqual([
      { title: MSG.applications.acceptedTitle, body: MSG.applications.acceptedMessage(parties.job.title), url: `/jobs/${parties.job.id}` },
    ]);
    await stack().queues.idle();
    expect(received(browser)).toHaveLength(1);
  }, 150_000);

  it('sends nothing by push for a type the user did not choose (push is off until they opt in)', async () => {
    const parties = await acceptedWorker();
    const browser = await subscribe(parties.worker);
    await choosePush(parties.worker, ['payment_released']);
    await applyAndAccept(parties);
    expect(received(browser)).toEqual([]);
  });

  it('opens the conversation for a worker question, and forgets a browser whose push service answers 410', async () => {
    const { poster, worker, job } = await acceptedWorker();
    const [gone, kept] = [await subscribe(poster), await subscribe(poster)];
    await choosePush(poster, ['worker_question']);
    stack().pushReceiver.unsubscribe(gone.endpoint);

    const started = await api<{ id: string }>(stack(), 'POST', '/conversations', { token: worker.idToken, body: { jobId: job.id } });
    expect(started.status).toBeLessThan(300);
    expect((await api(stack(), 'POST', `/conversations/${started.body.id}/messages`, { token: worker.idToken, body: { id: randomUUID(), content: 'Is the paint oil based?' } })).status).toBeLessThan(300);
    await stack().events.idle();

    expect(received(kept)).toEqual([expect.objectContaining({ url: `/real-time-messages/${encodeURIComponent(started.body.id)}` })]);
    expect(received(gone)).toEqual([]);
    const stored = async (subscription: ReceiverSubscription) => {
      const hash = createHash('sha256').update(subscription.endpoint).digest('base64url');
      return (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.pushSubscription(poster.userId, hash) }))).Item;
    };
    expect(await stored(gone)).toBeUndefined();
    expect(await stored(kept)).toMatchObject({ endpoint: kept.endpoint, keys: kept.keys });
  });

  it('stores and removes the caller’s subscriptions, validated', async () => {
    const user = await createUser(stack(), { role: 'worker' });
    const subscription = stack().pushReceiver.subscribe(await publicKey());
    const save = (body: object) => api<{ error?: string }>(stack(), 'PUT', '/me/push-subscriptions', { token: user.idToken, body });
    const refusals: Array<[object, string]> = [
      [{ ...subscription, endpoint: 'http://push.example.com/x' }, MSG.notifications.pushEndpointInvalid],
      [{ ...subscription, endpoint: 'not a url' }, MSG.notifications.pushEndpointInvalid],
      // Only the browsers' push services: the server would otherwise post wherever a user says.
      [{ ...subscription, endpoint: 'https://push.example.com/x' }, MSG.notifications.pushEndpointUnknownService],
      [{ ...subscription, endpoint: 'https://169.254.169.254/latest/meta-data' }, MSG.notifications.pushEndpointUnknownService],
      [{ ...subscription, endpoint: 'https://fcm.googleapis.com.example.com/fcm/send/x' }, MSG.notifications.pushEndpointUnknownService],
      [{ ...subscription, endpoint: 'https://evilnotify.windows.com/w/?token=x' }, MSG.notifications.pushEndpointUnknownService],
      [{ ...subscription, endpoint: 'https://fcm.googleapis.com:8443/fcm/send/x' }, MSG.notifications.pushEndpointUnknownService],
      [{ ...subscription, keys: { ...subscription.keys, p256dh: 'short' } }, MSG.notifications.pushKeysInvalid],
      [{ ...subscription, keys: { ...subscription.keys, auth: `${subscription.keys.auth}xx` } }, MSG.notifications.pushKeysInvalid],
    ];
    for (const [body, error] of refusals) expect(await save(body)).toMatchObject({ status: 400, body: { error } });
    expect((await api(stack(), 'PUT', '/me/push-subscriptions', { body: subscription })).status).toBe(401);

    expect((await save(subscription)).status).toBe(204);
    // The same browser saved again is one subscription; past the cap a new browser is refused.
    expect((await save(subscription)).status).toBe(204);
    // Each browser's push service is accepted.
    const services = ['https://fcm.googleapis.com/fcm/send/', 'https://updates.push.services.mozilla.com/wpush/v2/', 'https://web.push.apple.com/', 'https://wns2-par02p.notify.windows.com/w/?token='];
    for (let i = 1; i < MAX_PUSH_SUBSCRIPTIONS; i++) expect((await save({ ...subscription, endpoint: `${services[i % services.length]}${i}` })).status).toBe(204);
    expect(await save({ ...subscription, endpoint: 'https://fcm.googleapis.com/fcm/send/over' })).toMatchObject({ status: 409, body: { error: MSG.notifications.pushTooManyBrowsers(MAX_PUSH_SUBSCRIPTIONS) } });

    const remove = (endpoint: string) => api(stack(), 'DELETE', `/me/push-subscriptions?endpoint=${encodeURIComponent(endpoint)}`, { token: user.idToken });
    expect((await remove(`${services[1]}1`)).status).toBe(204);
    expect((await save({ ...subscription, endpoint: 'https://fcm.googleapis.com/fcm/send/over' })).status).toBe(204);
    expect((await remove('https://fcm.googleapis.com/fcm/send/never-saved')).status).toBe(204);
    expect((await api(stack(), 'DELETE', '/me/push-subscriptions', { token: user.idToken })).status).toBe(400);
  });
});
