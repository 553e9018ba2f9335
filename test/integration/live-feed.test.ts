import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { JobFeedMessage } from '../../functions/events/job-feed.js';
import { api, useLocalStack } from '../support/local-stack.js';
import { createReadyUser } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob, settle } from '../support/payments.js';

function connect(url: string): Promise<{ socket: WebSocket; messages: JobFeedMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: JobFeedMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as JobFeedMessage));
    socket.once('open', () => resolve({ socket, messages }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

describe('live job feed over the WebSocket API', () => {
  const stack = useLocalStack();

  it('pushes a new job to anonymous and signed-in browsers through EventBridge', async () => {
    const poster = await createPoster(stack());
    const visitor = await connect(`${stack().urls.webSocket}?token=anonymous`);
    const member = await connect(`${stack().urls.webSocket}?token=${poster.idToken}`);

    const job = await postPaidJob(stack(), poster, {
      title: 'Walk my dog',
      description: 'Thirty minutes around the block.',
      address: { street: '1 Elm St', city: 'Austin', state: 'TX' },
      payment: 2000,
      category: 'Pet Care',
      date: new Date().toISOString().slice(0, 10),
      duration: '30 minutes',
    });
    await settle(stack());
    await expect.poll(() => visitor.messages.length).toBe(1);
    expect(visitor.messages[0]).toEqual({ type: 'job.posted', job });
    expect(member.messages[0]).toEqual({ type: 'job.posted', job });
    expect(JSON.stringify(visitor.messages[0])).not.toContain('1 Elm St');
    visitor.socket.close();
    member.socket.close();
  });

  it('pushes the new pending count when a worker applies', async () => {
    const poster = await createPoster(stack());
    const worker = await createReadyUser(stack(), 'worker');
    const job = await postPaidJob(stack(), poster, {
      title: 'Water my plants',
      description: 'Twice next week.',
      address: { street: '2 Elm St', city: 'Austin', state: 'TX' },
      payment: 1500,
      category: 'Other',
      date: new Date().toISOString().slice(0, 10),
      duration: '20 minutes',
    });
    await settle(stack());
    const watcher = await connect(`${stack().urls.webSocket}?token=${poster.idToken}`);
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    await settle(stack());
    await expect.poll(() => watcher.messages.length).toBe(1);
    expect(watcher.messages[0]).toMatchObject({ type: 'job.updated', job: { id: job.id, pendingApplications: 1 } });
    watcher.socket.close();
  });

  it('refuses a connection with a forged token', async () => {
    await expect(connect(`${stack().urls.webSocket}?token=forged`)).rejects.toThrow(/refused: 403/);
  });
});
