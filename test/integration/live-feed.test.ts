import { describe, expect, it } from 'vitest';
import { jobTopic } from '../../shared/live.js';
import { api, useLocalStack } from '../support/local-stack.js';
import { createReadyUser } from '../support/job-lifecycle.js';
import { LiveSocket } from '../support/live-socket.js';
import { createPoster, postPaidJob, settle } from '../support/payments.js';

describe('live job feed over the WebSocket API', () => {
  const stack = useLocalStack();

  it("pushes the new pending count to the job's page when a worker applies", async () => {
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
    const watcher = await LiveSocket.open(stack().urls.webSocket, poster.idToken);
    await watcher.subscribe([jobTopic(job.id)]);
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    await settle(stack());
    await expect.poll(() => watcher.jobPushes().length).toBe(1);
    expect(watcher.jobPushes()[0]).toMatchObject({ type: 'job.updated', job: { id: job.id, pendingApplications: 1 } });
    await watcher.close();
   }, 60_000);

  it('refuses a connection with a forged token', async () => {
    await expect(LiveSocket.open(stack().urls.webSocket, 'forged')).rejects.toThrow(/refused: 403/);
  });
});
