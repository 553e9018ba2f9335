import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { JobSummary, Page, PublicProfile, Review, ReviewView } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { keys } from '../../functions/table.js';
import { createReadyUser, createReadyUsers, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';

describe('reviews between the poster and the worker of a paid job', () => {
  const stack = useLocalStack();

  const review = (job: { id: string }, reviewer: TestUser, body: object) =>
    api<Review & { error?: string }>(stack(), 'POST', `/jobs/${job.id}/reviews`, { token: reviewer.idToken, body });
  const edit = (job: { id: string }, reviewerId: string, editor: TestUser, body: object) =>
    api<Review & { error?: string }>(stack(), 'PUT', `/jobs/${job.id}/reviews/${reviewerId}`, { token: editor.idToken, body });
  const profile = async (user: TestUser, viewer: TestUser) =>
    (await api<PublicProfile>(stack(), 'GET', `/profiles/${user.userId}`, { token: viewer.idToken })).body;
  const reviewsAbout = async (user: TestUser, viewer: TestUser) =>
    (await api<Page<ReviewView>>(stack(), 'GET', `/profiles/${user.userId}/reviews`, { token: viewer.idToken })).body;
  const counters = async (user: TestUser) =>
    (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(user.userId) }))).Item!;

  /** A job the worker did through the whole loop, made paid in the table (the release is the payments issue's). */
  async function paidJob(poster: TestUser, worker: TestUser, title = 'Paint a garden shed'): Promise<JobSummary> {
    const job = await postOpenJob(stack(), poster, { title });
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    const accepted = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken });
    const completed = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/complete`, { token: worker.idToken });
    expect([accepted.status, completed.status]).toEqual([200, 200]);
    return setJobStatus(stack(), completed.body, 'paid');
  }

  it('opens once the job is paid, to its two parties only, once each, rating the other party', async () => {
    const [poster, outsider] = await createReadyUsers(stack(), 'poster', 2);
    const worker = await createReadyUser(stack(), 'worker');
    const job = await postOpenJob(stack(), poster!);
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster!.idToken });
    const completed = (await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/complete`, { token: worker.idToken })).body;
    expect(await review(job, poster!, { rating: 5 })).toEqual({ status: 409, body: { error: MSG.reviews.onlyAfterPaid } });
    await setJobStatus(stack(), completed, 'paid');

    const byPoster = await review(job, poster!, { rating: 5, comment: '  Spotless work.  ' });
    expect(byPoster.status).toBe(201);
    expect(byPoster.body).toMatchObject({ jobId: job.id, reviewerId: poster!.userId, revieweeId: worker.userId, rating: 5, comment: 'Spotless work.' });
    const byWorker = await review(job, worker, { rating: 4 });
    expect(byWorker.body).toMatchObject({ reviewerId: worker.userId, revieweeId: poster!.userId, rating: 4, comment: null });

    expect(await review(job, poster!, { rating: 1 })).toEqual({ status: 409, body: { error: MSG.reviews.duplicate } });
    expect(await review(job, outsider!, { rating: 3 })).toEqual({ status: 403, body: { error: MSG.reviews.onlyParties } });
    expect((await review({ id: 'no-such-job' }, poster!, { rating: 3 })).body).toEqual({ error: MSG.jobs.notFound });
    expect((await api(stack(), 'POST', `/jobs/${job.id}/reviews`, { body: { rating: 3 } })).status).toBe(401);

    expect(await profile(worker, outsider!)).toMatchObject({ rating: 5, reviewCount: 1 });
    expect(await profile(poster!, outsider!)).toMatchObject({ rating: 4, reviewCount: 1 });
    const about = await reviewsAbout(worker, outsider!);
    expect(about.items).toEqual([
      { review: byPoster.body, reviewer: { id: poster!.userId, name: 'poster 1', profileImage: null }, jobTitle: job.title },
    ]);
    expect(about.nextCursor).toBeNull();

    // The job's own list: both reviews, for anyone signed in (the admin console edits from it).
    const ofJob = await api<{ items: ReviewView[] }>(stack(), 'GET', `/jobs/${job.id}/reviews`, { token: outsider!.idToken });
    expect(ofJob.body.items.map((item) => [item.review.reviewerId, item.review.rating, item.reviewer?.name])).toEqual([
      [poster!.userId, 5, 'poster 1'],
      [worker.userId, 4, expect.any(String)],
    ]);
    expect((await api(stack(), 'GET', `/jobs/${randomUUID()}/reviews`, { token: poster!.idToken })).status).toBe(404);
  });

  it('requires a whole-star rating from 1 to 5 and a comment of at most 500 characters', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await paidJob(poster, worker);
    for (const body of [{}, { rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: '4' }, { rating: null }]) {
      expect((await review(job, poster, body)).body).toMatchObject({ error: MSG.reviews.ratingRequired });
    }
    expect((await review(job, poster, { rating: 4, comment: 'x'.repeat(501) })).body).toMatchObject({ error: MSG.reviews.commentTooLong });
    expect((await review(job, poster, { rating: 4, comment: 'x'.repeat(500) })).status).toBe(201);
    expect(await counters(worker)).toMatchObject({ ratingTotal: 4, reviewCount: 1 });
  });

  it('keeps reviews final for everyone but the admin, whose edit moves the rating by the difference', async () => {
    const admin = await createUser(stack(), { role: 'admin' });
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const [first, second] = [await paidJob(poster, worker, 'First'), await paidJob(poster, worker, 'Second')];
    await review(first, poster, { rating: 5, comment: 'Great' });
    await review(second, poster, { rating: 4 });

    for (const user of [poster, worker]) {
      expect(await edit(first, poster.userId, user, { rating: 1 })).toEqual({ status: 403, body: { error: MSG.reviews.cannotModify } });
    }
    const edited = await edit(first, poster.userId, admin, { rating: 2, comment: 'Edited by support' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ rating: 2, comment: 'Edited by support', reviewerId: poster.userId, revieweeId: worker.userId });
    const logged = await queryIndex(stack(), 'GSI2', keys.adminActionsOfType('edit_review'));
    expect(logged).toEqual([expect.objectContaining({ adminId: admin.userId, targetId: `${first.id}#${poster.userId}`, details: expect.objectContaining({ rating: 2 }) })]);
    expect(await counters(worker)).toMatchObject({ ratingTotal: 6, reviewCount: 2 });
    expect(await profile(worker, poster)).toMatchObject({ rating: 3, reviewCount: 2 });

    expect(await edit(first, worker.userId, admin, { rating: 3 })).toEqual({ status: 404, body: { error: MSG.reviews.notFound } });
    expect((await edit(first, poster.userId, admin, { rating: 9 })).body).toMatchObject({ error: MSG.reviews.ratingRequired });
    // Newest first.
    expect((await reviewsAbout(worker, admin)).items.map((item) => [item.jobTitle, item.review.rating])).toEqual([
      ['Second', 4],
      ['First', 2],
    ]);
  });

  it('counts 10 simultaneous reviews of one worker exactly', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const posters = await createReadyUsers(stack(), 'poster', 10);
    // Ten paid jobs of ten posters, all done by the same worker.
    const jobs = await Promise.all(
      posters.map(async (poster, i) => setJobStatus(stack(), await postOpenJob(stack(), poster, { title: `Job ${i + 1}` }), 'paid', worker.userId)),
    );
    const ratings = [5, 4, 3, 5, 2, 1, 4, 5, 3, 4];

    const answers = await Promise.all(posters.map((poster, i) => review(jobs[i]!, poster, { rating: ratings[i] })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(await counters(worker)).toMatchObject({ ratingTotal: 36, reviewCount: 10 });
    expect(await profile(worker, posters[0]!)).toMatchObject({ rating: 3.6, reviewCount: 10 });
    expect((await reviewsAbout(worker, posters[0]!)).items).toHaveLength(10);
  });
});
