import { describe, expect, it } from 'vitest';
import type { DataExport } from '../../shared/api.js';
import { sendMessage, startConversation } from '../support/chat.js';
import { createReadyUsers, postOpenJob } from '../support/job-lifecycle.js';
import { api, useLocalStack } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';

describe('data export (Download my data)', () => {
  const stack = useLocalStack();

  /** A poster's job with two applicants, one of whom talks with the poster. */
  async function marketplace() {
    const [poster, [worker, rival]] = await Promise.all([createPoster(stack()), createReadyUsers(stack(), 'worker', 2)]);
    const job = await postOpenJob(stack(), poster, { title: 'Fix a fence', address: { street: '7 Secret Lane', city: 'Austin', state: 'TX' } });
    for (const [applicant, message] of [
      [worker, 'Wendy can start Monday'],
      [rival, 'Rita private pitch'],
    ] as const) {
      expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: applicant!.idToken, body: { message } })).status).toBe(201);
    }
    const conversation = await startConversation(stack(), worker!, { jobId: job.id });
    expect((await sendMessage(stack(), worker!, conversation.id, 'Wendy asks about the gate')).status).toBe(201);
    expect((await sendMessage(stack(), poster, conversation.id, 'Poster shares the gate code 4321')).status).toBe(201);
    return { poster, worker, rival: rival!, job };
  }

  const exportOf = async (token: string) => {
    const response = await api<DataExport>(stack(), 'GET', '/me/export', { token });
    expect(response.status).toBe(200);
    return response.body;
  };

  it("holds the worker's own profile, application and sent messages, and none of anyone else's words", async () => {
    const { poster, worker, rival, job } = await marketplace();
    const { body: vapid } = await api<{ publicKey: string }>(stack(), 'GET', '/push/public-key');
    const browser = stack().pushReceiver.subscribe(vapid.publicKey);
    expect((await api(stack(), 'PUT', '/me/push-subscriptions', { token: worker!.idToken, body: browser })).status).toBe(204);
    const search = { text: 'gate repair', category: 'Handyman', radiusMiles: 10, latitude: 30.27, longitude: -97.74 };
    expect((await api(stack(), 'POST', '/me/saved-searches', { token: worker!.idToken, body: search })).status).toBe(201);
    const data = await exportOf(worker!.idToken);

    expect(data.profile).toMatchObject({ id: worker!.userId, email: worker!.email });
    expect(data.applications.map((application) => [application.jobId, application.message])).toEqual([[job.id, 'Wendy can start Monday']]);
    expect(data.messagesSent.map((message) => message.content)).toEqual(['Wendy asks about the gate']);

    // The browser the worker turned push on in: where its pushes go, not its encryption keys.
    expect(data.pushSubscriptions).toEqual([{ type: 'pushSubscription', userId: worker!.userId, endpoint: browser.endpoint, savedAt: expect.any(String) }]);
    // The searches the worker keeps (issue 46), with the place each is around.
    expect(data.savedSearches).toEqual([expect.objectContaining({ type: 'savedSearch', workerId: worker!.userId, ...search })]);

    const text = JSON.stringify(data);
    for (const private_ of ['Poster shares the gate code 4321', 'Rita private pitch', '7 Secret Lane', poster.email, rival.email, browser.keys.auth, browser.keys.p256dh]) expect(text).not.toContain(private_);
    // The table's keys and indexes are plumbing, not data about the user.
    for (const plumbing of ['"pk"', '"sk"', '"gsi1pk"']) expect(text).not.toContain(plumbing);
  }, 120_000);

  it("holds the poster's own job with its address and their sent messages, but not the applicants' pitches or the worker's messages", async () => {
    const { poster, worker, rival, job } = await marketplace();
    const data = await exportOf(poster.idToken);

    expect(data.jobsPosted.map((posted) => [posted.id, posted.fullAddress])).toEqual([[job.id, '7 Secret Lane, Austin, TX']]);
    expect(data.messagesSent.map((message) => message.content)).toEqual(['Poster shares the gate code 4321']);
    expect(data.payments.map((payment) => payment.jobId)).toEqual([job.id]);
    expect(data.notifications.length).toBeGreaterThan(0); // the applications the poster was told of

    const text = JSON.stringify(data);
    for (const private_ of ['Wendy asks about the gate', 'Wendy can start Monday', 'Rita private pitch', worker!.email, rival.email]) expect(text).not.toContain(private_);
  }, 120_000);

  it('needs a signed-in caller', async () => {
    expect((await api(stack(), 'GET', '/me/export')).status).toBe(401);
  });
});
