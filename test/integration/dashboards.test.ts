import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Dashboard, JobDetail, JobSummary, LiveMessage, Review } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { createReadyUser, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { settle } from '../support/payments.js';

describe('GET /me/dashboard', () => {
  const stack = useLocalStack();

  const dashboard = (user: TestUser) => api<Dashboard & { error?: string }>(stack(), 'GET', '/me/dashboard', { token: user.idToken });
  const post = <T>(path: string, user: TestUser, body: object = {}) => api<T & { error?: string }>(stack(), 'POST', path, { token: user.idToken, body });

  /** A job the worker was accepted for and marked completed. */
  async function completedJob(poster: TestUser, worker: TestUser, title: string): Promise<JobSummary> {
    const job = await postOpenJob(stack(), poster, { title });
    await post(`/jobs/${job.id}/applications`, worker);
    await post(`/jobs/${job.id}/applications/${worker.userId}/accept`, poster);
    return (await post<JobSummary>(`/jobs/${job.id}/complete`, worker)).body;
  }

  it("answers each role with its own jobs, the decline reason for the two parties only, earnings and the reviews about them", async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const [worker, otherWorker] = [await createReadyUser(stack(), 'worker'), await createReadyUser(stack(), 'worker')];
    const declined = await completedJob(poster, worker, 'Fix a fence');
    const reason = 'The gate still sticks.';
    expect((await post(`/jobs/${declined.id}/decline-completion`, poster, { reason })).status).toBe(200);
    const paid = await setJobStatus(stack(), await completedJob(poster, worker, 'Mow a lawn'), 'paid');
    const open = await postOpenJob(stack(), poster, { title: 'Clean a garage' });
    await post(`/jobs/${open.id}/applications`, otherWorker);
    // The worker's review, hidden, is published with the poster's (double-blind).
    await post(`/jobs/${paid.id}/reviews`, worker, { rating: 5 });
    const review = (await post<Review>(`/jobs/${paid.id}/reviews`, poster, { rating: 4, comment: 'Neat edges.' })).body;

    const forWorker = await dashboard(worker);
    expect(forWorker.status).toBe(200);
    // One of the worker's two jobs is paid, the other still assigned: a success rate of 50% (spec 2 §9).
    expect(forWorker.body).toMatchObject({ role: 'worker', totalEarnings: paid.payment, successRate: 50, rating: 4, reviewCount: 1 });
    expect(forWorker.body.jobs.map((job) => [job.title, job.status, job.declineReason])).toEqual([
      ['Mow a lawn', 'paid', undefined],
      ['Fix a fence', 'assigned', reason],
    ]);
    expect(forWorker.body.jobs.every((job) => job.assignedAt !== undefined)).toBe(true);
    expect(forWorker.body.reviews.items).toEqual([
      { review, reviewer: { id: poster.userId, name: expect.any(String) as string, profileImage: null }, jobTitle: 'Mow a lawn' },
    ]);

    const forPoster = await dashboard(poster);
    expect(forPoster.body).toMatchObject({ role: 'poster', totalEarnings: 0, successRate: null, rating: 5, reviewCount: 1 });
    expect(forPoster.body.jobs.map((job) => [job.title, job.status, job.pendingApplications])).toEqual([
      ['Clean a garage', 'open', 1],
      ['Mow a lawn', 'paid', 0],
      ['Fix a fence', 'assigned', 0],
    ]);

    // Nobody else's work shows: the other worker has no assigned job, only an application.
    expect((await dashboard(otherWorker)).body).toMatchObject({ role: 'worker', jobs: [], totalEarnings: 0, successRate: null, reviewCount: 0 });
    // The reason is the parties' own: the job page shows it to them, never to anyone else.
    const detail = (user: TestUser) => api<JobDetail>(stack(), 'GET', `/jobs/${declined.id}`, { token: user.idToken });
    expect((await detail(worker)).body.declineReason).toBe(reason);
    expect((await detail(poster)).body.declineReason).toBe(reason);
    expect((await detail(otherWorker)).body).not.toHaveProperty('declineReason');
    // Completing again answers the decline: the reason is gone.
    await post(`/jobs/${declined.id}/complete`, worker);
    expect((await dashboard(worker)).body.jobs.find((job) => job.id === declined.id)).not.toHaveProperty('declineReason');
  });

  it('tells the worker why in the job_declined notification', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await completedJob(poster, worker, 'Hang shelves');
    await post(`/jobs/${job.id}/decline-completion`, poster, { reason: 'One shelf is crooked.' });
    const { body } = await api<{ items: { type: string; message: string; metadata: Record<string, string> }[] }>(stack(), 'GET', '/me/notifications', {
      token: worker.idToken,
    });
    const notice = body.items.find((item) => item.type === 'job_declined');
    expect(notice).toMatchObject({ message: MSG.applications.declinedMessage(job.title, 'One shelf is crooked.'), metadata: { reason: 'One shelf is crooked.' } });
  });

  it('refuses the admin (who has a console) and signed-out callers', async () => {
    const admin = await createUser(stack(), { role: 'admin' });
    expect(await dashboard(admin)).toEqual({ status: 403, body: { error: MSG.backend.accessDenied } });
    expect((await api(stack(), 'GET', '/me/dashboard')).status).toBe(401);
  });

  it('pushes a review live to the user it is about once it is published, and to no one else', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await setJobStatus(stack(), await completedJob(poster, worker, 'Wash windows'), 'paid');
    const [workerSocket, posterSocket] = await Promise.all([listen(`${stack().urls.webSocket}?token=${worker.idToken}`), listen(`${stack().urls.webSocket}?token=${poster.idToken}`)]);
    const hidden = (await post<Review>(`/jobs/${job.id}/reviews`, worker, { rating: 4 })).body;
    await settle(stack());
    const review = (await post<Review>(`/jobs/${job.id}/reviews`, poster, { rating: 5 })).body;
    await settle(stack());
    await expect.poll(() => workerSocket.messages.filter((message) => message.type === 'review.saved')).toEqual([{ type: 'review.saved', review }]);
    // The worker's review reached the poster once, when the poster's published both.
    expect(posterSocket.messages.filter((message) => message.type === 'review.saved')).toEqual([{ type: 'review.saved', review: { ...hidden, publishedAt: review.publishedAt } }]);
    workerSocket.socket.close();
    posterSocket.socket.close();
  });
});

function listen(url: string): Promise<{ socket: WebSocket; messages: LiveMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: LiveMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as LiveMessage));
    socket.once('open', () => resolve({ socket, messages }));
    socket.once('error', reject);
  });
}
