import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, NotificationPreferences, OwnProfile, UnreadCount } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, EARTH_RADIUS_MILES } from '../../shared/notifications.js';
import { localClock } from '../../functions/notifications/local-clock.js';
import { notificationItem, toNotification } from '../../functions/notifications/notifications.js';
import { ZipCodeGeocoder } from '../../functions/lib/geocoder.js';
import { EVENT_SOURCE, JOB_EVENT, NOTIFICATION_EVENT } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { BUS_NAME } from '../../infra/local/stack.js';
import { jobForm, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { LiveSocket } from '../support/live-socket.js';
import { createPoster } from '../support/payments.js';

const ZONE = 'America/Chicago';

describe('notifications, location and nearby-job alerts', () => {
  const stack = useLocalStack();
  const table = () => tableClient(stack());

  const notificationsOf = async (user: TestUser) => (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items;
  const unread = async (user: TestUser) => (await api<UnreadCount>(stack(), 'GET', '/me/notifications/unread-count', { token: user.idToken })).body;


  async function workerAt(point: { latitude: number; longitude: number }, preferences: Partial<NotificationPreferences> = {}, timeZone = ZONE) {
    const worker = await createUser(stack(), { role: 'worker' });
    expect((await api(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { ...point, timeZone } })).status).toBe(200);
    const saved = await api(stack(), 'PUT', '/me/notification-preferences', { token: worker.idToken, body: { ...DEFAULT_NOTIFICATION_PREFERENCES, ...preferences } });
    expect(saved.status).toBe(200);
    return worker;
  }

  it('saves a location from coordinates or a zip, indexes alert-taking workers by area, and refuses bad input', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const byZip = await api<OwnProfile>(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { zip: '78701', timeZone: ZONE } });
    expect(byZip.status).toBe(200);
    expect(byZip.body).toMatchObject({ location: '78701', notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES });
    expect(byZip.body.latitude).toBeCloseTo(30.27, 1);
    expect(byZip.body.locationUpdatedAt).not.toBeNull();
    const profileItem = async () => (await table().send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }))).Item!;
    expect((await profileItem()).gsi1pk).toMatch(/^GEO#5#9v6/);

    const cases: Array<[string, object, string]> = [
      ['/me/location', { zip: '', timeZone: ZONE }, MSG.location.invalidZip],
      ['/me/location', { zip: '00000', timeZone: ZONE }, MSG.location.zipNotFound],
      ['/me/location', { latitude: 91, longitude: 0, timeZone: ZONE }, 'Too big: expected number to be <=90'],
      ['/me/location', { latitude: 30, longitude: -97, timeZone: 'Mars/Olympus' }, MSG.location.timeZoneInvalid],
      ['/me/notification-preferences', { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: 7 }, MSG.location.radiusChoice],
      ['/me/notification-preferences', { ...DEFAULT_NOTIFICATION_PREFERENCES, maxPerDay: 11 }, MSG.location.dailyLimitChoice],
      ['/me/notification-preferences', { ...DEFAULT_NOTIFICATION_PREFERENCES, quietHours: { enabled: true, start: '25:00', end: '08:00' } }, MSG.location.timeFormat],
    ];
    for (const [path, body, message] of cases) {
      const response = await api<{ error: string }>(stack(), 'PUT', path, { token: worker.idToken, body });
      expect(response, message).toMatchObject({ status: 400, body: { error: message } });
    }
    expect((await profileItem()).location).toBe('78701');

    // Turning alerts off takes the worker out of the geo index; a new radius moves them.
    await api(stack(), 'PUT', '/me/notification-preferences', { token: worker.idToken, body: { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false } });
    expect((await profileItem()).gsi1pk).toBeUndefined();
    await api(stack(), 'PUT', '/me/notification-preferences', { token: worker.idToken, body: { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: 25 } });
    expect((await profileItem()).gsi1pk).toMatch(/^GEO#25#9v6/);
  });

  it('alerts exactly the workers the rules allow, once per job and worker even when the event comes twice', async () => {
    const jobPoint = (await new ZipCodeGeocoder().geocode({ street: jobForm.address.street, city: jobForm.address.city, state: jobForm.address.state }))!;
    const north = (miles: number) => ({ latitude: jobPoint.latitude + (miles / EARTH_RADIUS_MILES) * (180 / Math.PI), longitude: jobPoint.longitude });
    const localNow = localClock(new Date(), ZONE);
    const hhmm = (minute: number) => `${String(Math.floor(((minute + 1440) % 1440) / 60)).padStart(2, '0')}:${String(((minute + 1440) % 1440) % 60).padStart(2, '0')}`;

    const [inside, outside, otherCategory, quiet, capped, wide] = await Promise.all([
      workerAt(north(4.95)),
      workerAt(north(5.05)),
      workerAt(north(1), { jobCategories: ['Moving'] }),
      // Quiet from a minute ago until two minutes before that: across midnight, around now.
      workerAt(north(1), { quietHours: { enabled: true, start: hhmm(localNow.minuteOfDay - 1), end: hhmm(localNow.minuteOfDay - 2) } }),
      workerAt(north(1), { maxPerDay: 5 }),
      workerAt(north(20), { radiusMiles: 25, jobCategories: ['Home Projects'] }),
    ]);
    // The capped worker already had five alerts today, in their zone.
    await table().send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.nearbyAlertCount(capped.userId, localNow.day), alerts: 5 } }));

    // The inside worker has the app open: the alerts' bulk hand-off reaches their socket.
    const socket = await LiveSocket.open(stack().urls.webSocket, inside.idToken);

    const poster = await createPoster(stack());
    const job = await postOpenJob(stack(), poster);
    await stack().events.idle();

    // The same event again, as EventBridge may deliver it.
    const bus = new EventBridgeClient({ endpoint: stack().urls.events, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await bus.send(new PutEventsCommand({ Entries: [{ EventBusName: BUS_NAME, Source: EVENT_SOURCE.jobs, DetailType: JOB_EVENT.posted, Detail: JSON.stringify({ job, change: 'posted' }) }] }));
    await stack().events.idle();
    await socket.close();
    expect(socket.notifications().filter((n) => n.type === 'new_job_nearby' && n.jobId === job.id)).toHaveLength(1);

    const nearby = async (user: TestUser) => (await notificationsOf(user)).filter((n) => n.type === 'new_job_nearby' && n.jobId === job.id);
    expect(await nearby(inside)).toHaveLength(1);
    expect((await nearby(inside))[0]).toMatchObject({ title: MSG.notifications.nearbyTitle, read: false });
    expect(await nearby(wide)).toHaveLength(1);
    for (const skipped of [outside, otherCategory, quiet, capped, poster]) expect(await nearby(skipped)).toHaveLength(0);
    const counter = await table().send(new GetCommand({ TableName: stack().tableName, Key: keys.nearbyAlertCount(inside.userId, localNow.day) }));
    expect(counter.Item?.alerts).toBe(1);
  });

  it('sorts urgent types first, counts unread, and lets only the owner mark read', async () => {
    const [owner, stranger] = await Promise.all([createUser(stack(), { role: 'poster' }), createUser(stack(), { role: 'worker' })]);
    const write = async (type: AppNotification['type']) => {
      const item = notificationItem({ userId: owner.userId, jobId: null, type, title: type, message: type });
      await table().send(new PutCommand({ TableName: stack().tableName, Item: item }));
      await new Promise((resolve) => setTimeout(resolve, 2));
      return item.id;
    };
    await write('worker_question');
    await write('job_completed');
    await write('new_job_nearby');
    await write('job_unassigned');
    const newest = await write('worker_question');

    expect((await notificationsOf(owner)).map((n) => n.type)).toEqual(['job_completed', 'job_unassigned', 'new_job_nearby', 'worker_question', 'worker_question']);
    expect(await unread(owner)).toEqual({ count: 5, capped: false });

    expect((await api(stack(), 'POST', `/me/notifications/${newest}/read`, { token: stranger.idToken })).status).toBe(404);
    expect((await api(stack(), 'POST', '/me/notifications/not-a-notification/read', { token: owner.idToken })).status).toBe(404);
    expect(await unread(owner)).toEqual({ count: 5, capped: false });

    const read = await api<AppNotification>(stack(), 'POST', `/me/notifications/${newest}/read`, { token: owner.idToken });
    expect(read).toMatchObject({ status: 200, body: { id: newest, read: true } });
    expect(await unread(owner)).toEqual({ count: 4, capped: false });

    expect((await api(stack(), 'POST', '/me/notifications/read-all', { token: owner.idToken })).body).toEqual({ updated: 4 });
    expect(await unread(owner)).toEqual({ count: 0, capped: false });
    expect((await notificationsOf(owner)).every((n) => n.read)).toBe(true);
    expect(await queryIndex(stack(), 'GSI2', keys.unreadNotificationsOf(owner.userId))).toHaveLength(0);
  });

  it("keeps each type's channels: the defaults, a partial save keeps the rest, what is not a choice refused", async () => {
    const user = await createUser(stack(), { role: 'worker' });
    const me = async () => (await api<OwnProfile>(stack(), 'GET', '/me', { token: user.idToken })).body.notificationPreferences.channels;
    const save = (body: object) => api<OwnProfile & { error?: string }>(stack(), 'PUT', '/me/notification-preferences', { token: user.idToken, body });
    const { channels: _defaults, ...withoutChannels } = DEFAULT_NOTIFICATION_PREFERENCES;

    // DECISIONS.md: in-app all; email for money, assignment, disputes and the nearby digest; push none.
    const defaults = await me();
    expect(Object.values(defaults).every((choice) => choice.inApp && !choice.push)).toBe(true);
    expect(defaults.payment_released.email && defaults.application_accepted.email && defaults.dispute_update.email && defaults.new_job_nearby.email).toBe(true);
    expect(defaults.worker_question.email).toBe(false);

    expect((await save({ ...withoutChannels, channels: { payment_released: { inApp: true, email: false, push: false } } })).status).toBe(200);
    // A save without channels (or with other types) keeps what was chosen.
    expect((await save({ ...withoutChannels, radiusMiles: 10 })).status).toBe(200);
    expect((await save({ ...withoutChannels, channels: { worker_question: { inApp: false, email: true, push: false } } })).status).toBe(200);
    const chosen = await me();
    expect(chosen.payment_released).toEqual({ inApp: true, email: false, push: false });
    expect(chosen.worker_question).toEqual({ inApp: false, email: true, push: false });
    expect(chosen.dispute_update).toEqual(defaults.dispute_update);

    const refused: Array<[object, string]> = [
      [{ not_a_type: { inApp: true, email: true, push: false } }, 'Unrecognized key: "not_a_type"'],
      [{ payment_released: { inApp: true } }, 'Invalid input: expected boolean, received undefined'],
    ];
    for (const [channels, message] of refused) expect(await save({ ...withoutChannels, channels })).toMatchObject({ status: 400, body: { error: message } });
    expect(await me()).toEqual(chosen);
  });

  it('leaves a type turned off in the app out of the list, the unread count and the live push, and nothing else', async () => {
    const user = await createUser(stack(), { role: 'poster' });
    const { channels: _defaults, ...withoutChannels } = DEFAULT_NOTIFICATION_PREFERENCES;
    const hide = { worker_question: { inApp: false, email: false, push: false } };
    expect((await api(stack(), 'PUT', '/me/notification-preferences', { token: user.idToken, body: { ...withoutChannels, channels: hide } })).status).toBe(200);

    const socket = await LiveSocket.open(stack().urls.webSocket, user.idToken);
    const bus = new EventBridgeClient({ endpoint: stack().urls.events, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const deliver = async (type: AppNotification['type']) => {
      const item = notificationItem({ userId: user.userId, jobId: null, type, title: type, message: type });
      await table().send(new PutCommand({ TableName: stack().tableName, Item: item }));
      const detail = { userId: user.userId, notification: toNotification(item) };
      await bus.send(new PutEventsCommand({ Entries: [{ EventBusName: BUS_NAME, Source: EVENT_SOURCE.notifications, DetailType: NOTIFICATION_EVENT.created, Detail: JSON.stringify(detail) }] }));
      return item.id;
    };
    try {
      const hidden = await deliver('worker_question');
      const shown = await deliver('dispute_update');
      await expect.poll(() => socket.notifications().map((n) => n.id)).toContain(shown);
      // One more after both: the hidden one's push had its turn too.
      const later = await deliver('job_completed');
      await expect.poll(() => socket.notifications().map((n) => n.id)).toContain(later);
      expect(socket.notifications().map((n) => n.id)).not.toContain(hidden);
      expect((await notificationsOf(user)).map((n) => n.id).sort()).toEqual([shown, later].sort());
      expect(await unread(user)).toEqual({ count: 2, capped: false });
      // Still stored (email may carry it), and read with the rest.
      expect(await queryIndex(stack(), 'GSI2', keys.unreadNotificationsOf(user.userId))).toHaveLength(3);
      expect((await api(stack(), 'POST', '/me/notifications/read-all', { token: user.idToken })).body).toEqual({ updated: 3 });
    } finally {
      await socket.close();
    }
  });

  it('caps the unread count past 99 without reading every notification', async () => {
    const user = await createUser(stack(), { role: 'worker' });
    await Promise.all(
      Array.from({ length: 105 }, () =>
        table().send(new PutCommand({ TableName: stack().tableName, Item: notificationItem({ userId: user.userId, jobId: null, type: 'dispute_update', title: 't', message: 'm' }) })),
      ),
    );
    expect(await unread(user)).toEqual({ count: 100, capped: true });
    const page = await table().send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.userPartition(user.userId) }, Select: 'COUNT' }),
    );
    expect(page.Count).toBe(106);
    expect(await notificationsOf(user)).toHaveLength(50);
  });
});
