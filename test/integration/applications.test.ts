import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AppNotification, Application, ApplicationsOfJob, JobDetail, JobPaymentStart, JobSummary, WorkerApplication } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { notifyWorkerQuestion } from '../../functions/chat/worker-questions.js';
import { keys } from '../../functions/table.js';
import { createReadyUser, createReadyUsers, jobForm, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';

describe('applications, acceptance and completion', () => {
  // No per-client budget: 50 workers apply at once, and on DynamoDB Local every counter write adds to the queue.
  const stack = useLocalStack({ clientBudgetPerMinute: Infinity });

  const apply = (job: { id: string }, worker: TestUser, body: object = {}) =>
    api<Application & { error?: string }>(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body });
  const decide = (job: { id: string }, poster: TestUser, worker: TestUser, decision: 'accept' | 'reject') =>
    // A job summary after accept, the application after reject, or a refusal.
    api<{ status?: string; workerId?: string; error?: string }>(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/${decision}`, {
      token: poster.idToken,
    });
  const applicants = (job: { id: string }, user: TestUser) => api<ApplicationsOfJob>(stack(), 'GET', `/jobs/${job.id}/applications`, { token: user.idToken });
  const notifications = async (user: TestUser) =>
    (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items;
  const jobOf = async (job: { id: string }, user: TestUser) => (await api<JobDetail>(stack(), 'GET', `/jobs/${job.id}`, { token: user.idToken })).body;
  const refusal = (status: number, error: string) => ({ status, body: { error } });

  it('takes one application per worker, with an optional message, from workers with a payment account only', async () => {
    const [poster, worker, otherPoster] = await Promise.all([
      createReadyUser(stack(), 'poster'),
      createReadyUser(stack(), 'worker'),
      createReadyUser(stack(), 'poster'),
    ]);
    const unready = await createUser(stack(), { role: 'worker' });
    const job = await postOpenJob(stack(), poster);

    const applied = await apply(job, worker, { message: '  I have done this before.  ' });
    expect(applied.status).toBe(201);
    expect(applied.body).toMatchObject({ jobId: job.id, workerId: worker.userId, posterId: poster.userId, status: 'pending', message: 'I have done this before.' });
    expect((await api(stack(), 'GET', `/jobs/${job.id}/applications/mine`, { token: worker.idToken })).body).toEqual(applied.body);
    expect((await jobOf(job, worker)).pendingApplications).toBe(1);

    expect(await apply(job, worker, { message: 'again' })).toEqual(refusal(409, MSG.applications.alreadyApplied));
    expect(await apply(job, otherPoster)).toEqual(refusal(403, MSG.applications.onlyWorkers));
    expect(await apply(job, unready)).toEqual(refusal(403, MSG.payments.accountNeededToApply));
    expect((await apply({ id: 'no-such-job' }, worker)).body).toEqual({ error: MSG.jobs.notFound });
    // A draft still awaiting its payment is invisible to workers.
    const draft = await api<JobPaymentStart>(stack(), 'POST', '/jobs', { token: poster.idToken, body: jobForm });
    expect(await apply(draft.body.job, worker)).toEqual(refusal(404, MSG.jobs.notFound));
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { body: {} })).status).toBe(401);

    const second = await postOpenJob(stack(), poster, { title: 'Second job' });
    const tooLong = await apply(second, worker, { message: 'x'.repeat(1001) });
    expect(tooLong).toEqual({ status: 400, body: { error: MSG.applications.messageTooLong, fields: { message: MSG.applications.messageTooLong } } });
    const blank = await apply(second, worker, { message: '   ' });
    expect(blank.body).toMatchObject({ status: 'pending', message: null });

    expect(await api(stack(), 'GET', `/jobs/${job.id}/applications/mine`, { token: otherPoster.idToken })).toEqual(refusal(404, MSG.applications.notFound));
    const mine = await api<{ items: WorkerApplication[] }>(stack(), 'GET', '/me/applications', { token: worker.idToken });
    expect(mine.body.items.map((entry) => [entry.job.title, entry.application.status])).toEqual([
      ['Second job', 'pending'],
      [job.title, 'pending'],
    ]);
  });

  it('refuses an application to a job of one\'s own', async () => {
    // Only posters post and only workers apply, so this needs a user whose role changed.
    const poster = await createReadyUser(stack(), 'poster');
    const job = await postOpenJob(stack(), poster);
    await tableClient(stack()).send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.profile(poster.userId),
        UpdateExpression: 'SET #role = :worker',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':worker': 'worker' },
      }),
    );
    expect(await apply(job, poster)).toEqual(refusal(403, MSG.applications.ownJob));
  });

  it('holds 4 pending applications at most; a rejection frees a spot and tells the worker', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const workers = await createReadyUsers(stack(), 'worker', 6);
    const job = await postOpenJob(stack(), poster);
    for (const worker of workers.slice(0, 4)) expect((await apply(job, worker)).status).toBe(201);
    expect(await apply(job, workers[4]!)).toEqual(refusal(409, MSG.applications.full));
    expect((await jobOf(job, workers[4]!)).pendingApplications).toBe(4);

    const rejected = await decide(job, poster, workers[0]!, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ workerId: workers[0]!.userId, status: 'rejected' });
    expect(await decide(job, poster, workers[0]!, 'reject')).toEqual(refusal(409, MSG.applications.notPending));
    const [notice] = await notifications(workers[0]!);
    expect(notice).toMatchObject({ type: 'application_rejected', jobId: job.id, read: false });
    expect(notice!.message).toContain(job.title);

    expect((await apply(job, workers[4]!)).status).toBe(201);
    expect(await apply(job, workers[5]!)).toEqual(refusal(409, MSG.applications.full));
    // A rejected worker does not get a second try.
    expect(await apply(job, workers[0]!)).toEqual(refusal(409, MSG.applications.alreadyApplied));

    const list = await applicants(job, poster);
    expect(list.body).toMatchObject({ total: 5, pending: 4 });
  });

  it('shows the applicants to the job\'s poster only, newest first with their public profiles', async () => {
    const [poster, otherPoster] = await createReadyUsers(stack(), 'poster', 2);
    const [first, second] = await createReadyUsers(stack(), 'worker', 2);
    const patched = await api(stack(), 'PATCH', '/me', { token: second!.idToken, body: { bio: 'Careful painter', skills: ['Painting', 'Ladders'] } });
    expect(patched.status).toBe(200);
    const job = await postOpenJob(stack(), poster!);
    await apply(job, first!, { message: 'First!' });
    await apply(job, second!, { message: 'Second.' });

    const { status, body } = await applicants(job, poster!);
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 2, pending: 2 });
    expect(body.items.map((item) => [item.worker.id, item.application.message])).toEqual([
      [second!.userId, 'Second.'],
      [first!.userId, 'First!'],
    ]);
    expect(body.items[0]!.worker).toMatchObject({ name: 'worker 2', bio: 'Careful painter', skills: ['Painting', 'Ladders'], rating: null, profileImage: null });
    expect(body.items[0]!.worker).not.toHaveProperty('email');

    for (const outsider of [otherPoster!, first!]) expect(await applicants(job, outsider)).toEqual(refusal(404, MSG.jobs.notFound));
    expect(await decide(job, otherPoster!, first!, 'accept')).toEqual(refusal(404, MSG.jobs.notFound));
    expect(await decide(job, otherPoster!, first!, 'reject')).toEqual(refusal(404, MSG.jobs.notFound));
    expect(await decide(job, first!, second!, 'accept')).toEqual(refusal(404, MSG.jobs.notFound));
  });

  it('accepts one applicant atomically: the job is assigned, the others rejected, everyone told', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const [chosen, other, third, late] = await createReadyUsers(stack(), 'worker', 4);
    const job = await postOpenJob(stack(), poster);
    for (const worker of [chosen!, other!, third!]) await apply(job, worker);
    expect(await decide(job, poster, late!, 'accept')).toEqual(refusal(404, MSG.applications.notFound));

    const accepted = await decide(job, poster, chosen!, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: job.id, status: 'assigned', workerId: chosen!.userId, pendingApplications: 0 });

    // The job moved in every index: off the open feed, into the worker's assigned jobs.
    expect((await queryIndex(stack(), 'GSI1', keys.jobsByStatus('open'))).map((item) => item.id)).not.toContain(job.id);
    const workerJobs = await queryIndex(stack(), 'GSI3', keys.jobsByWorker(chosen!.userId));
    expect(workerJobs.map((item) => [item.id, String(item.gsi3sk).split('#')[0]])).toEqual([[job.id, 'assigned']]);

    const list = (await applicants(job, poster)).body;
    expect(Object.fromEntries(list.items.map((item) => [item.worker.id, item.application.status]))).toEqual({
      [chosen!.userId]: 'accepted',
      [other!.userId]: 'rejected',
      [third!.userId]: 'rejected',
    });
    expect(list.pending).toBe(0);
    expect((await notifications(chosen!))[0]).toMatchObject({ type: 'application_accepted', jobId: job.id });
    for (const worker of [other!, third!]) expect((await notifications(worker))[0]).toMatchObject({ type: 'application_rejected', jobId: job.id });

    const mine = (await api<{ items: WorkerApplication[] }>(stack(), 'GET', '/me/applications', { token: chosen!.idToken })).body.items;
    expect(mine[0]!.application.status).toBe('accepted');
    expect(mine[0]!.job).toEqual({ id: job.id, title: job.title, status: 'assigned' });
    expect(Date.now() - Date.parse(mine[0]!.application.updatedAt)).toBeLessThan(60_000); // the dashboard's 24-hour banner

    expect(await decide(job, poster, other!, 'accept')).toEqual(refusal(409, MSG.applications.workerAlreadyAccepted));
    expect(await decide(job, poster, other!, 'reject')).toEqual(refusal(409, MSG.applications.notPending));
    expect(await apply(job, late!)).toEqual(refusal(409, MSG.applications.notAvailable));
    // The assigned worker sees the full address now.
    expect((await jobOf(job, chosen!)).fullAddress).toBe('12 Oak St, Austin, TX');
  });

  it('lets only the assigned worker complete, and the poster decline with a reason', async () => {
    const [poster, otherPoster] = await createReadyUsers(stack(), 'poster', 2);
    const [worker, stranger] = await createReadyUsers(stack(), 'worker', 2);
    const job = await postOpenJob(stack(), poster!);
    const complete = (user: TestUser) => api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/complete`, { token: user.idToken });
    const decline = (user: TestUser, body: object) => api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/decline-completion`, { token: user.idToken, body });
    const notAuthorized = refusal(404, MSG.applications.notAuthorizedToComplete);

    expect(await complete(worker!)).toEqual(notAuthorized); // still open
    await apply(job, worker!);
    await decide(job, poster!, worker!, 'accept');
    expect(await decline(poster!, { reason: 'Not done yet' })).toEqual(refusal(409, MSG.applications.onlyCompletedDecline));
    for (const user of [stranger!, poster!]) expect(await complete(user)).toEqual(notAuthorized);

    const completed = await complete(worker!);
    expect(completed.body).toMatchObject({ status: 'completed', workerId: worker!.userId });
    expect(await complete(worker!)).toEqual(notAuthorized);
    expect((await notifications(poster!))[0]).toMatchObject({ type: 'job_completed', jobId: job.id });
    expect((await queryIndex(stack(), 'GSI3', keys.jobsByWorker(worker!.userId)))[0]!.gsi3sk).toMatch(/^completed#/);

    expect(await decline(worker!, { reason: 'x' })).toEqual(refusal(404, MSG.jobs.notFound));
    expect(await decline(otherPoster!, { reason: 'x' })).toEqual(refusal(404, MSG.jobs.notFound));
    for (const body of [{ reason: '   ' }, {}]) expect((await decline(poster!, body)).body).toMatchObject({ error: MSG.applications.declineReasonRequired });

    const declined = await decline(poster!, { reason: '  The trim is still unpainted.  ' });
    expect(declined.body).toMatchObject({ status: 'assigned', workerId: worker!.userId });
    const [notice] = await notifications(worker!);
    expect(notice).toMatchObject({ type: 'job_declined', jobId: job.id, metadata: { reason: 'The trim is still unpainted.' } });
    expect(notice!.message).toContain('The trim is still unpainted.');
    expect((await queryIndex(stack(), 'GSI2', keys.jobsByPoster(poster!.userId)))[0]!.gsi2sk).toMatch(/^assigned#/);

    // Back to work, then done again.
    expect((await complete(worker!)).body).toMatchObject({ status: 'completed' });
    await stack().events.idle();
  });

  it('admits exactly 4 of 50 workers applying at the same moment; the other 46 are told why', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const workers = await createReadyUsers(stack(), 'worker', 50);
    const job = await postOpenJob(stack(), poster);

    const answers = await Promise.all(workers.map((worker) => apply(job, worker)));
    const byStatus = answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    expect(byStatus).toEqual({ 201: 4, 409: 46 });
    expect(new Set(answers.filter((a) => a.status === 409).map((a) => a.body.error))).toEqual(new Set([MSG.applications.full]));

    const { Items = [] } = await tableClient(stack()).send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :app)',
        ExpressionAttributeValues: { ':pk': keys.jobPartition(job.id), ':app': keys.applicationPrefix() },
      }),
    );
    expect(Items.map((item) => item.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect((await jobOf(job, poster)).pendingApplications).toBe(4);
  }, 120_000);

  it('assigns exactly one worker when two accepts race', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const [a, b] = await createReadyUsers(stack(), 'worker', 2);
    const job = await postOpenJob(stack(), poster);
    await apply(job, a!);
    await apply(job, b!);

    const answers = await Promise.all([decide(job, poster, a!, 'accept'), decide(job, poster, b!, 'accept')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.status === 409)!;
    expect(loser.body.error).toBe(MSG.applications.workerAlreadyAccepted);
    const winner = answers.find((answer) => answer.status === 200)!.body.workerId;

    expect((await jobOf(job, poster)).workerId).toBe(winner);
    const statuses = (await applicants(job, poster)).body.items.map((item) => [item.worker.id, item.application.status]);
    expect(Object.fromEntries(statuses)).toEqual({
      [a!.userId]: a!.userId === winner ? 'accepted' : 'rejected',
      [b!.userId]: b!.userId === winner ? 'accepted' : 'rejected',
    });
  });

  it('tells the poster when a worker asks about an open job (the seam for messaging)', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await postOpenJob(stack(), poster);

    const written = await notifyWorkerQuestion({ jobId: job.id, workerId: worker.userId, conversationId: 'conv-1' });
    expect(written).toBeDefined();
    const [notice] = await notifications(poster);
    expect(notice).toMatchObject({
      type: 'worker_question',
      jobId: job.id,
      metadata: { conversation_id: 'conv-1', worker_id: worker.userId, worker_name: 'worker 1' },
    });

    await expect(notifyWorkerQuestion({ jobId: job.id, workerId: poster.userId, conversationId: 'conv-2' })).rejects.toThrow(MSG.applications.cannotMessageSelf);
    await expect(notifyWorkerQuestion({ jobId: 'missing', workerId: worker.userId, conversationId: 'conv-3' })).rejects.toThrow(MSG.jobs.notFound);
    await setJobStatus(stack(), job, 'assigned', worker.userId);
    expect(await notifyWorkerQuestion({ jobId: job.id, workerId: worker.userId, conversationId: 'conv-4' })).toBeUndefined();
    expect(await notifications(poster)).toHaveLength(1);
  });
});
