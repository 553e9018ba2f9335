import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, JobSummary, SavedJob } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { keys } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createReadyUser } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const form = {
  title: 'Fix a fence',
  description: 'Two loose boards on a wooden fence.',
  address: { street: '5 Cedar Ln', city: 'Austin', state: 'TX' },
  payment: 4000,
  category: 'Handyman',
  date: new Date().toISOString().slice(0, 10),
  duration: '1 hour',
};

describe('poster job management', () => {
  const stack = useLocalStack();
  const post = async (poster: TestUser, body: object = form) =>
    postPaidJob(stack(), poster, body);

  /** Assigns a worker the way the product does: the worker applies, the poster accepts. */
  async function assign(job: JobSummary, poster: TestUser, worker: TestUser) {
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken })).status).toBe(200);
  }

  it('lets only the owner edit an open job, with the spec texts', async () => {
    const [owner, other, worker] = await Promise.all([createPoster(stack()), createPoster(stack()), createReadyUser(stack(), 'worker')]);
    const job = await post(owner);
    const edited = await api<JobSummary>(stack(), 'PUT', `/jobs/${job.id}`, { token: owner.idToken, body: { ...form, title: 'Fix a garden fence' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Fix a garden fence', payment: 4000, postedAmount: 4560 });
    // The job was paid for when it was posted: its price is locked.
    expect(await api(stack(), 'PUT', `/jobs/${job.id}`, { token: owner.idToken, body: { ...form, payment: 10_000 } })).toEqual({
      status: 400,
      body: { error: MSG.jobs.priceLocked },
    });

    for (const intruder of [other, worker]) {
      const refused = await api(stack(), 'PUT', `/jobs/${job.id}`, { token: intruder.idToken, body: form });
      expect(refused).toEqual({ status: 404, body: { error: MSG.jobs.notFoundOrNoPermission('update') } });
    }
    const invalid = await api<{ error: string }>(stack(), 'PUT', `/jobs/${job.id}`, { token: owner.idToken, body: { ...form, title: '' } });
    expect(invalid.body.error).toBe(MSG.jobForm.titleRequired);

    await assign(job, owner, worker);
    const locked = await api(stack(), 'PUT', `/jobs/${job.id}`, { token: owner.idToken, body: form });
    expect(locked).toEqual({ status: 409, body: { error: MSG.jobs.onlyOpenEditable } });
  });

  it('cancels only assigned jobs, clearing the worker', async () => {
    const [owner, worker] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker')]);
    const job = await post(owner);
    expect(await api(stack(), 'POST', `/jobs/${job.id}/cancel`, { token: owner.idToken })).toEqual({
      status: 409,
      body: { error: MSG.jobs.onlyAssignedCancel },
    });
    await assign(job, owner, worker);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/cancel`, { token: worker.idToken })).body).toEqual({
      error: MSG.jobs.notFoundOrNoPermission('cancel'),
    });
    const cancelled = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/cancel`, { token: owner.idToken });
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body).not.toHaveProperty('workerId');
    expect(await queryIndex(stack(), 'GSI3', keys.jobsByWorker(worker.userId))).toEqual([]);
  });

  it('unassigns an assigned job back to open and tells the worker, live', async () => {
    const [owner, worker, next] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await post(owner);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/unassign`, { token: owner.idToken })).body).toEqual({
      error: MSG.jobs.onlyAssignedUnassign,
    });
    await assign(job, owner, worker);
    const unassigned = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/unassign`, { token: owner.idToken });
    expect(unassigned.body).toMatchObject({ status: 'open' });
    expect(unassigned.body).not.toHaveProperty('workerId');

    const { body } = await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken });
    expect(body.items[0]).toMatchObject({ type: 'job_unassigned', title: MSG.jobs.unassignNoticeTitle, jobId: job.id, read: false });
    expect(body.items[0]!.message).toContain(job.title);
    // Back in the open feed.
    await stack().events.idle();
    const open = await api<{ items: JobSummary[] }>(stack(), 'GET', '/jobs?q=fence');
    expect(open.body.items.map((j) => j.id)).toContain(job.id);
    // And it can take another worker.
    await assign(job, owner, next);
  });

  it('deletes only in the allowed statuses, and the cascade leaves no orphan', async () => {
    const [owner, worker] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker')]);
    const job = await post(owner);
    await stack().events.idle();
    expect((await api(stack(), 'PUT', `/me/saved-jobs/${job.id}`, { token: worker.idToken })).status).toBe(204);
    await assign(job, owner, worker);
    expect(await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: owner.idToken })).toEqual({
      status: 409,
      body: { error: MSG.jobs.cannotDeleteInStatus },
    });
    await api(stack(), 'POST', `/jobs/${job.id}/unassign`, { token: owner.idToken }); // leaves a notification of the job
    await stack().events.idle();
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: worker.idToken })).body).toEqual({
      error: MSG.jobs.notFoundOrNoPermission('delete'),
    });

    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: owner.idToken })).status).toBe(204);
    await stack().events.idle();
    const partition = await tableClient(stack()).send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.jobPartition(job.id) } }),
    );
    expect(partition.Items).toEqual([]);
    expect(await queryIndex(stack(), 'GSI3', keys.jobReferences(job.id))).toEqual([]);
    // Its search document is a tombstone: a running search function forgets the job (issue 46).
    const { Item: searchDocument } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.searchDocument(job.id) }));
    expect(searchDocument).toMatchObject({ jobId: job.id, expiresAt: expect.any(Number) });
    expect(searchDocument!.entry).toBeUndefined();
    expect((await api(stack(), 'GET', `/jobs/${job.id}`, { token: owner.idToken })).status).toBe(404);
    expect((await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken })).body.items).toEqual([]);
  });

  it('keeps saved jobs per worker, newest first, and drops entries of deleted jobs', async () => {
    const [owner, worker] = await Promise.all([createPoster(stack()), createUser(stack(), { role: 'worker' })]);
    const first = await post(owner, { ...form, title: 'First' });
    const second = await post(owner, { ...form, title: 'Second' });
    await api(stack(), 'PUT', `/me/saved-jobs/${first.id}`, { token: worker.idToken });
    await api(stack(), 'PUT', `/me/saved-jobs/${second.id}`, { token: worker.idToken });
    await api(stack(), 'PUT', `/me/saved-jobs/${first.id}`, { token: worker.idToken }); // saving twice keeps one
    const saved = async () => (await api<{ items: SavedJob[] }>(stack(), 'GET', '/me/saved-jobs', { token: worker.idToken })).body.items;
    expect((await saved()).map((entry) => entry.job.title)).toEqual(['Second', 'First']);

    expect(await api(stack(), 'PUT', `/me/saved-jobs/${first.id}`, { token: owner.idToken })).toEqual({ status: 403, body: { error: MSG.savedJobs.onlyWorkers } });
    expect((await api(stack(), 'PUT', '/me/saved-jobs/nope', { token: worker.idToken })).status).toBe(404);

    await api(stack(), 'DELETE', `/me/saved-jobs/${second.id}`, { token: worker.idToken });
    await api(stack(), 'DELETE', `/jobs/${first.id}`, { token: owner.idToken });
    expect(await saved()).toEqual([]);
  });

  it('lists the caller\'s jobs: a poster\'s posted ones, a worker\'s assigned ones, newest first', async () => {
    const [owner, worker] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker')]);
    const first = await post(owner, { ...form, title: 'First' });
    const second = await post(owner, { ...form, title: 'Second' });
    const mine = (user: TestUser) => api<{ items: JobSummary[] }>(stack(), 'GET', '/me/jobs', { token: user.idToken });
    expect((await mine(owner)).body.items.map((j) => j.id)).toEqual([second.id, first.id]);
    expect((await mine(worker)).body.items).toEqual([]);
    await assign(first, owner, worker);
    expect((await mine(worker)).body.items.map((j) => [j.id, j.status])).toEqual([[first.id, 'assigned']]);
  });
});
