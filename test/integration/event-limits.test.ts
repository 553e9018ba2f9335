import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { notificationItem, toNotification, type NewNotification } from '../../functions/notifications/notifications.js';
import { PUT_EVENTS_LIMITS, putEventsEntrySize } from '../../functions/lib/event-limits.js';
import { outboxItem } from '../../functions/lib/outbox.js';
import { EVENT_SOURCE, NOTIFICATION_EVENT } from '../../functions/routes.js';
import { BUS_NAME } from '../../infra/local/stack.js';
import { LiveSocket } from '../support/live-socket.js';
import { createUser, tableClient, useLocalStack } from '../support/local-stack.js';

describe("events within EventBridge's PutEvents limits", () => {
  const stack = useLocalStack();
  const bus = () => new EventBridgeClient({ endpoint: stack().urls.events });
  const probe = (bytes: number): PutEventsRequestEntry => ({ EventBusName: BUS_NAME, Source: 'test.limits', DetailType: 'Probe', Detail: JSON.stringify({ text: 'x'.repeat(bytes) }) });

  it('refuses a call of too many entries, of too many bytes, or of one entry too large, as EventBridge does', async () => {
    const before = stack().events.callsOverLimits();
    await expect(bus().send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => probe(10)) }))).rejects.toMatchObject({
      name: 'ValidationException',
      message: expect.stringContaining('Member must have length less than or equal to 10'),
    });
    for (const entries of [[probe(140_000), probe(140_000)], [probe(270_000)]]) {
      await expect(bus().send(new PutEventsCommand({ Entries: entries }))).rejects.toMatchObject({
        name: 'ValidationException',
        message: 'Total size of the entries in the request is over the limit.',
      });
    }
    expect(stack().events.callsOverLimits()).toBe(before + 3);

    const justUnder = Array.from({ length: 10 }, () => probe(25_000));
    expect(justUnder.reduce((sum, entry) => sum + putEventsEntrySize(entry), 0)).toBeLessThan(PUT_EVENTS_LIMITS.bytesPerCall);
    expect((await bus().send(new PutEventsCommand({ Entries: justUnder }))).FailedEntryCount).toBe(0);
  });

  it('relays a burst of large bulk notifications in calls within the limits, and one too large for any call by reference', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const socket = await LiveSocket.open(stack().urls.webSocket, worker.idToken);
    await stack().events.idle();
    const before = stack().events.callsOverLimits();

    // Other users' notifications fill each event to its size, as the nearby-job alerts fill theirs.
    const filler = (count: number): NewNotification[] =>
      Array.from({ length: count }, (_, index) => {
        const item = notificationItem({ userId: `filler-${index}`, jobId: null, type: 'new_job_nearby', title: 'New job near you', message: 'm'.repeat(2_000) });
        return { userId: item.userId, notification: toNotification(item) };
      });
    const mine = Array.from({ length: 4 }, (_, index) => notificationItem({ userId: worker.userId, jobId: null, type: 'new_job_nearby', title: `Burst ${index}`, message: 'Near you' }));
    // Three of about 120 KB (any two exceed one call), then one of about 300 KB (over any call).
    const sizes = [60, 60, 60, 150];
    const items = mine.map((item, index) =>
      outboxItem(EVENT_SOURCE.notifications, NOTIFICATION_EVENT.createdInBulk, {
        notifications: [...filler(sizes[index]!), { userId: worker.userId, notification: toNotification(item) }],
      }),
    );
    expect(Buffer.byteLength(items[0]!.detail) * 2).toBeGreaterThan(PUT_EVENTS_LIMITS.bytesPerCall);
    expect(Buffer.byteLength(items[3]!.detail)).toBeGreaterThan(PUT_EVENTS_LIMITS.bytesPerCall);
    for (const item of items) await tableClient(stack()).send(new PutCommand({ TableName: stack().tableName, Item: item }));

    await stack().events.idle();
    await socket.close();
    expect(stack().events.callsOverLimits()).toBe(before);
    expect(socket.notifications().map((notification) => notification.title).sort()).toEqual(['Burst 0', 'Burst 1', 'Burst 2', 'Burst 3']);
    // Kept while a dead-lettered event could still be redriven, where the others go after a day.
    expect(items[3]!.expiresAt - items[0]!.expiresAt).toBeGreaterThan(13 * 24 * 60 * 60);
  });
});
