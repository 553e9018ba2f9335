import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { JobSummary, Page, PublicProfile, Review, ReviewView } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { keys } from '../../functions/table.js';
import type { ReviewPublicationInput } from '../../functions/money/auto-release.js';
import { SCHEDULE_TARGETS } from '../../functions/routes.js';
import { invoke } from '../../infra/local/lambda-runtime.js';
import { scheduleTargetName } from '../../infra/local/scheduler.js';
import { createReadyUser, createReadyUsers, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { settle } from '../support/payments.js';

/** Short enough to watch a job's reviews be published by its schedule. */
const REVIEW_PUBLICATION_SECONDS = 5;

describe('reviews between the poster and the worker of a paid job', () => {
  const stack = useLocalStack({ reviewPublicationSeconds: REVIEW_PUBLICATION_SECONDS });

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
  const jobReviews = async (job: { id: string }, viewer: TestUser) =>
    (await api<{ items: ReviewView[] }>(stack(), 'GET', `/jobs/${job.id}/reviews`, { token: viewer.idToken })).body.items;
  /** The job's publication schedule firing (as the scheduler invokes it). */
  const publicationFires = (job: { id: string }) =>
    invoke(scheduleTargetName('autoRelease'), SCHEDULE_TARGETS.autoRelease, { action: 'publish-reviews', jobId: job.id } satisfies ReviewPublicationInput);

  /** A job the worker did through the whole loop, made paid in the table (the release is the payments issue's). */
  async function paidJob(poster: TestUser, worker: TestUser, title = 'Paint a garden shed'): Promise<JobSummary> {
    const job = await postOpenJob(stack(), poster, { title });
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    const accepted = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken });
    const completed = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/complete`, { token: worker.idToken });
    expect([accepted.status, completed.status]).toEqual([200, 200]);
    return setJobStatus(stack(), completed.body, 'paid');
  }

  // The file's first test: every function it calls starts cold, each in its own worker (hence its timeout).
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
    expect(byPoster.body).toMatchObject({ jobId: job.id, reviewerId: poster!.userId, revieweeId: worker.userId, rating: 5, comment: 'Spotless work.', publishedAt: null });
    // Double-blind: hidden from the worker and everyone else until the worker reviews too; its reviewer sees it.
    expect(await profile(worker, outsider!)).toMatchObject({ rating: null, reviewCount: 0 });
    expect((await reviewsAbout(worker, worker)).items).toEqual([]);
    expect(await jobReviews(job, worker)).toEqual([]);
    expect(await jobReviews(job, outsider!)).toEqual([]);
    expect((await jobReviews(job, poster!)).map((item) => item.review)).toEqual([byPoster.body]);
    const byWorker = await review(job, worker, { rating: 4 });
    expect(byWorker.body).toMatchObject({ reviewerId: worker.userId, revieweeId: poster!.userId, rating: 4, comment: null, publishedAt: expect.any(String) });
    // Both published together.
    const publishedAt = byWorker.body.publishedAt;

    expect(await review(job, poster!, { rating: 1 })).toEqual({ status: 409, body: { error: MSG.reviews.duplicate } });
    expect(await review(job, outsider!, { rating: 3 })).toEqual({ status: 403, body: { error: MSG.reviews.onlyParties } });
    expect((await review({ id: 'no-such-job' }, poster!, { rating: 3 })).body).toEqual({ error: MSG.jobs.notFound });
    expect((await api(stack(), 'POST', `/jobs/${job.id}/reviews`, { body: { rating: 3 } })).status).toBe(401);

    expect(await profile(worker, outsider!)).toMatchObject({ rating: 5, reviewCount: 1 });
    expect(await profile(poster!, outsider!)).toMatchObject({ rating: 4, reviewCount: 1 });
    const about = await reviewsAbout(worker, outsider!);
    expect(about.items).toEqual([
      { review: { ...byPoster.body, publishedAt }, reviewer: { id: poster!.userId, name: 'poster 1', profileImage: null }, jobTitle: job.title },
    ]);
    expect(about.nextCursor).toBeNull();

    // The job's own list: both reviews once published, for anyone signed in (the admin console edits from it).
    const ofJob = await api<{ items: ReviewView[] }>(stack(), 'GET', `/jobs/${job.id}/reviews`, { token: outsider!.idToken });
    expect(ofJob.body.items.map((item) => [item.review.reviewerId, item.review.rating, item.reviewer?.name])).toEqual([
      [poster!.userId, 5, 'poster 1'],
      [worker.userId, 4, expect.any(String)],
    ]);
    expect((await api(stack(), 'GET', `/jobs/${randomUUID()}/reviews`, { token: poster!.idToken })).status).toBe(404);
  }, 90_000);

  it('requires a whole-star rating from 1 to 5 and a comment of at most 500 characters', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await paidJob(poster, worker);
    for (const body of [{}, { rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: '4' }, { rating: null }]) {
      expect((await review(job, poster, body)).body).toMatchObject({ error: MSG.reviews.ratingRequired });
    }
    expect((await review(job, poster, { rating: 4, comment: 'x'.repeat(501) })).body).toMatchObject({ error: MSG.reviews.commentTooLong });
    expect((await review(job, poster, { rating: 4, comment: 'x'.repeat(500) })).status).toBe(201);
    expect(await jobReviews(job, poster)).toMatchObject([{ review: { rating: 4, comment: 'x'.repeat(500) } }]);
  });

  it('keeps reviews final for everyone but the admin, who sees and edits hidden ones too; an edit moves a published rating by the difference', async () => {
    const admin = await createUser(stack(), { role: 'admin' });
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const [first, second] = [await paidJob(poster, worker, 'First'), await paidJob(poster, worker, 'Second')];
    await review(first, poster, { rating: 5, comment: 'Great' });
    await review(second, poster, { rating: 4 });

    for (const user of [poster, worker]) {
      expect(await edit(first, poster.userId, user, { rating: 1 })).toEqual({ status: 403, body: { error: MSG.reviews.cannotModify } });
    }
    expect(await jobReviews(first, admin)).toMatchObject([{ review: { reviewerId: poster.userId, rating: 5, publishedAt: null } }]);
    // A hidden review's edit stays hidden: nothing counted yet.
    const edited = await edit(first, poster.userId, admin, { rating: 2, comment: 'Edited by support' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ rating: 2, comment: 'Edited by support', reviewerId: poster.userId, revieweeId: worker.userId, publishedAt: null });
    const logged = await queryIndex(stack(), 'GSI2', keys.adminActionsOfType('edit_review'));
    expect(logged).toEqual([expect.objectContaining({ adminId: admin.userId, targetId: `${first.id}#${poster.userId}`, details: expect.objectContaining({ rating: 2 }) })]);
    expect(await counters(worker)).toMatchObject({ ratingTotal: 0, reviewCount: 0 });
    expect(await jobReviews(first, worker)).toEqual([]);

    // The worker's reviews publish both sides, the edited rating counted.
    expect((await review(first, worker, { rating: 5 })).status).toBe(201);
    expect((await review(second, worker, { rating: 5 })).status).toBe(201);
    expect(await counters(worker)).toMatchObject({ ratingTotal: 6, reviewCount: 2 });
    expect(await profile(worker, poster)).toMatchObject({ rating: 3, reviewCount: 2 });
    expect((await edit(second, poster.userId, admin, { rating: 3 })).status).toBe(200);
    expect(await counters(worker)).toMatchObject({ ratingTotal: 5, reviewCount: 2 });
    expect((await edit(second, poster.userId, admin, { rating: 4 })).status).toBe(200);

    expect(await edit(first, randomUUID(), admin, { rating: 3 })).toEqual({ status: 404, body: { error: MSG.reviews.notFound } });
    expect((await edit(first, poster.userId, admin, { rating: 9 })).body).toMatchObject({ error: MSG.reviews.ratingRequired });
    // Newest first.
    expect((await reviewsAbout(worker, admin)).items.map((item) => [item.jobTitle, item.review.rating])).toEqual([
      ['Second', 4],
      ['First', 2],
    ]);
  });

  it('counts 10 simultaneous reviews of one worker exactly, published by the worker\'s simultaneous reviews', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const posters = await createReadyUsers(stack(), 'poster', 10);
    // Ten paid jobs of ten posters, all done by the same worker.
    const jobs = await Promise.all(
      posters.map(async (poster, i) => setJobStatus(stack(), await postOpenJob(stack(), poster, { title: `Job ${i + 1}` }), 'paid', worker.userId)),
    );
    const ratings = [5, 4, 3, 5, 2, 1, 4, 5, 3, 4];

    const hidden = await Promise.all(posters.map((poster, i) => review(jobs[i]!, poster, { rating: ratings[i] })));
    expect(hidden.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(await counters(worker)).toMatchObject({ ratingTotal: 0, reviewCount: 0 });
    const publishing = await Promise.all(jobs.map((job) => review(job, worker, { rating: 5 })));
    expect(publishing.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(await counters(worker)).toMatchObject({ ratingTotal: 36, reviewCount: 10 });
    for (const poster of posters) expect(await counters(poster)).toMatchObject({ ratingTotal: 5, reviewCount: 1 });
    expect(await profile(worker, posters[0]!)).toMatchObject({ rating: 3.6, reviewCount: 10 });
    expect((await reviewsAbout(worker, posters[0]!)).items).toHaveLength(10);
  });

  it("publishes a lone review by the job's schedule after the release; a review written after that is published at once", async () => {
    const [poster, worker, outsider] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title: 'Clean the gutters' });
    await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} });
    await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`, { token: poster.idToken });
    await api(stack(), 'POST', `/jobs/${job.id}/complete`, { token: worker.idToken });
    const released = await api<JobSummary>(stack(), 'POST', `/jobs/${job.id}/release-payment`, { token: poster.idToken });
    expect(released.body.status).toBe('paid');
    await settle(stack());
    const [schedule] = stack().scheduler.schedules().filter((entry) => entry.Name === `reviews-${job.id}`);
    expect(JSON.parse(schedule!.Target.Input!)).toEqual({ action: 'publish-reviews', jobId: job.id });
    expect(Date.parse(`${/at\((.*)\)/.exec(schedule!.ScheduleExpression)![1]}Z`) - Date.parse(released.body.updatedAt)).toBeGreaterThan((REVIEW_PUBLICATION_SECONDS - 1) * 1000);

    expect((await review(job, poster, { rating: 4, comment: 'On time' })).body.publishedAt).toBeNull();
    expect(await profile(worker, outsider)).toMatchObject({ reviewCount: 0 });
    await new Promise((resolve) => setTimeout(resolve, REVIEW_PUBLICATION_SECONDS * 1000 + 1000));
    await stack().scheduler.idle();
    await settle(stack());

    expect(await profile(worker, outsider)).toMatchObject({ rating: 4, reviewCount: 1 });
    expect((await reviewsAbout(worker, outsider)).items).toMatchObject([{ review: { jobId: job.id, rating: 4, comment: 'On time', publishedAt: expect.any(String) } }]);
    expect((await review(job, worker, { rating: 5 })).body.publishedAt).toEqual(expect.any(String));
    expect(await profile(poster, outsider)).toMatchObject({ rating: 5, reviewCount: 1 });
  }, 90_000);

  it('publishes and counts each review once when the schedule races the second review', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const posters = await createReadyUsers(stack(), 'poster', 5);
    const jobs = await Promise.all(posters.map(async (poster, i) => setJobStatus(stack(), await postOpenJob(stack(), poster, { title: `Race ${i + 1}` }), 'paid', worker.userId)));
    for (const [i, poster] of posters.entries()) expect((await review(jobs[i]!, poster, { rating: 3 })).status).toBe(201);

    const raced = await Promise.all(jobs.flatMap((job) => [review(job, worker, { rating: 4 }).then((answer) => answer.status), publicationFires(job)]));
    expect(raced.filter((result) => typeof result === 'number')).toEqual(Array(5).fill(201));
    // A schedule fired again (at least once delivery) changes nothing.
    await Promise.all(jobs.map(publicationFires));

    expect(await counters(worker)).toMatchObject({ ratingTotal: 15, reviewCount: 5 });
    for (const poster of posters) expect(await counters(poster)).toMatchObject({ ratingTotal: 4, reviewCount: 1 });
    expect((await reviewsAbout(worker, posters[0]!)).items).toHaveLength(5);
    for (const [i, job] of jobs.entries()) {
      expect((await jobReviews(job, posters[(i + 1) % 5]!)).map((item) => item.review.publishedAt)).toEqual([expect.any(String), expect.any(String)]);
    }
  });

  it('publishes both reviews once when the two sides review at the same time', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const jobs = await Promise.all([1, 2, 3].map(async (n) => setJobStatus(stack(), await postOpenJob(stack(), poster, { title: `Both at once ${n}` }), 'paid', worker.userId)));
    const answers = await Promise.all(jobs.flatMap((job) => [review(job, poster, { rating: 2 }), review(job, worker, { rating: 5 })]));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(await counters(worker)).toMatchObject({ ratingTotal: 6, reviewCount: 3 });
    expect(await counters(poster)).toMatchObject({ ratingTotal: 15, reviewCount: 3 });
    for (const job of jobs) expect((await jobReviews(job, poster)).map((item) => item.review.publishedAt)).toEqual([expect.any(String), expect.any(String)]);
  });
});
