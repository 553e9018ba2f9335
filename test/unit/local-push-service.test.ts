import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import type { Listening } from '../../infra/local/http-util.js';
import { PushReceiver, RECEIVED_PUSHES_KEPT, type ReceivedPush, type ReceiverSubscription } from '../../infra/local/push-receiver.js';

/** The local push service's routes for other processes (the browser tests' files): subscribe there, read what arrived. */
describe('the local push service over HTTP', () => {
  let service: Listening;
  beforeAll(async () => {
    service = await new PushReceiver().serve(0);
  });
  afterAll(() => service.close());

  const subscribe = (body: string) => fetch(`${service.url}/subscriptions`, { method: 'POST', body });
  const received = async (endpoint: string) => ((await (await fetch(endpoint)).json()) as { received: ReceivedPush[] }).received;

  it('answers a subscription for a VAPID key, and what a push to it carried once decrypted', async () => {
    const vapid = webPush.generateVAPIDKeys();
    const answer = await subscribe(JSON.stringify({ applicationServerKey: vapid.publicKey }));
    expect(answer.status).toBe(201);
    const subscription = (await answer.json()) as ReceiverSubscription;
    expect(subscription).toEqual({ endpoint: expect.stringMatching(new RegExp(`^${service.url}/push/[\\w-]+$`)), expirationTime: null, keys: { p256dh: expect.any(String), auth: expect.any(String) } });
    expect(await received(subscription.endpoint)).toEqual([]);

    const push = webPush.generateRequestDetails(subscription, JSON.stringify({ title: 'Hi' }), {
      vapidDetails: { subject: 'mailto:push@oddjobs.test', ...vapid },
      TTL: 60,
      contentEncoding: 'aes128gcm',
    });
    const sent = await fetch(push.endpoint, { method: push.method, headers: push.headers as Record<string, string>, body: new Uint8Array(push.body) });
    expect(sent.status).toBe(201);
    expect(await received(subscription.endpoint)).toEqual([{ payload: '{"title":"Hi"}', ttl: 60, subject: 'mailto:push@oddjobs.test', receivedAt: expect.any(String) }]);
  });

  it('keeps the last pushes of a subscription only, newest last', async () => {
    const vapid = webPush.generateVAPIDKeys();
    const subscription = (await (await subscribe(JSON.stringify({ applicationServerKey: vapid.publicKey }))).json()) as ReceiverSubscription;
    for (let n = 1; n <= RECEIVED_PUSHES_KEPT + 5; n++) {
      const push = webPush.generateRequestDetails(subscription, String(n), { vapidDetails: { subject: 'mailto:push@oddjobs.test', ...vapid }, TTL: 60, contentEncoding: 'aes128gcm' });
      expect((await fetch(push.endpoint, { method: push.method, headers: push.headers as Record<string, string>, body: new Uint8Array(push.body) })).status).toBe(201);
    }
    const kept = (await received(subscription.endpoint)).map((push) => Number(push.payload));
    expect(kept).toEqual(Array.from({ length: RECEIVED_PUSHES_KEPT }, (_, index) => index + 6));
  });

  it('refuses a body without a P-256 public key (400), and knows no other subscription (404)', async () => {
    for (const body of ['not json', 'null', '{}', JSON.stringify({ applicationServerKey: 'short' })]) expect((await subscribe(body)).status).toBe(400);
    expect((await fetch(`${service.url}/push/no-such-subscription`)).status).toBe(404);
    expect((await fetch(`${service.url}/subscriptions`)).status).toBe(404);
  });
});
