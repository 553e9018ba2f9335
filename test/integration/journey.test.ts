import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { JobCardSummary, JobDetail, JobSummary, OwnProfile, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { jobIndexKeys, newJob, type JobItem } from '../../functions/jobs/jobs.js';
import { keys, LIST_SHARDS, shardOf } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack } from '../support/local-stack.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const validJob = {
  title: 'Help moving a couch',
  description: 'Carry a couch from the 2nd floor to a truck.',
  address: { street: '12 Main St', city: 'Austin', state: 'TX' },
  payment: 5000,
  category: 'Moving',
  date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  duration: '2 hours',
  requirements: ['  Strong  ', '', 'Own gloves'],
  skills: ['Lifting'],
};

describe('walking skeleton: sign up, verify, sign in, post a job, see it', () => {
  const stack = useLocalStack();

  it('creates the profile on verification and lets the poster post a job everyone sees', async () => {
    const poster = await createPoster(stack(), { name: 'Pat Poster' });
    const me = await api<OwnProfile>(stack(), 'GET', '/me', { token: poster.idToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: poster.userId, name: 'Pat Poster', role: 'poster', email: poster.email });

    const created = { body: await postPaidJob(stack(), poster, validJob) };
    expect(created.body).toMatchObject({
      status: 'open',
      location: 'Austin, TX',
      payment: 5000,
      platformFee: 700,
      postedAmount: 5700,
      requirements: ['Strong', 'Own gloves'],
    });
    expect(created.body).not.toHaveProperty('fullAddress');

    const landing = await api<Page<JobSummary>>(stack(), 'GET', '/jobs');
    expect(landing.body.items.map((job) => job.id)).toContain(created.body.id);

    // The poster's own signed-in feed never shows their own jobs.
    const ownFeed = await api<Page<JobSummary>>(stack(), 'GET', '/feed/jobs', { token: poster.idToken });
    expect(ownFeed.body.items.map((job) => job.id)).not.toContain(created.body.id);

    const worker = await createUser(stack(), { role: 'worker' });
    const workerFeed = await api<Page<JobSummary>>(stack(), 'GET', '/feed/jobs', { token: worker.idToken });
    expect(workerFeed.body.items.map((job) => job.id)).toContain(created.body.id);

    const publicDetail = await api<JobDetail>(stack(), 'GET', `/jobs/${created.body.id}`, { token: worker.idToken });
    expect(publicDetail.status).toBe(200);
    expect(publicDetail.body.location).toBe('Austin, TX');
    expect(publicDetail.body).not.toHaveProperty('fullAddress');
    expect(publicDetail.body.poster).toMatchObject({ name: 'Pat Poster', role: 'poster' });
    expect(publicDetail.body.poster).not.toHaveProperty('email');

    const ownerDetail = await api<JobDetail>(stack(), 'GET', `/jobs/${created.body.id}`, { token: poster.idToken });
    expect(ownerDetail.body.fullAddress).toBe('12 Main St, Austin, TX');
  });

  it('pages the open jobs newest first with a cursor', async () => {
    const poster = await createPoster(stack());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await postPaidJob(stack(), poster, { ...validJob, title: `Job ${i}` })).id);
    }
    const first = await api<Page<JobSummary>>(stack(), 'GET', '/jobs?limit=2');
    expect(first.body.items.map((job) => job.id)).toEqual([ids[2], ids[1]]);
    const second = await api<Page<JobSummary>>(stack(), 'GET', `/jobs?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items[0]?.id).toBe(ids[0]);
    expect((await api(stack(), 'GET', '/jobs?cursor=not-a-cursor')).status).toBe(400);
    expect((await api(stack(), 'GET', '/jobs?limit=500')).status).toBe(400);
  });

  it('reads the open jobs back from all their shards newest first, page boundaries falling inside shards (issue 24)', async () => {
    const poster = await createPoster(stack());
    // Five jobs older than any other, written straight to the table (posting through Stripe is
    // rate-limited); their ids chosen so that they span three shards, one of them holding two.
    const request = createJobSchema.parse(validJob);
    let jobs: JobItem[];
    do {
      jobs = Array.from({ length: 5 }, (_, i) => newJob({ ...request, title: `Sharded job ${i}` }, poster.userId, `2001-01-0${i + 1}T00:00:00.000Z`));
    } while (new Set(jobs.map((job) => shardOf(job.id, LIST_SHARDS))).size !== Math.min(3, LIST_SHARDS));
    await tableClient(stack()).send(
      new BatchWriteCommand({
        RequestItems: { [stack().tableName]: jobs.map((job) => ({ PutRequest: { Item: { ...keys.job(job.id), type: 'job', ...job, ...jobIndexKeys(job) } } })) },
      }),
    );
    const ids = jobs.map((job) => job.id);
    const stored = (await queryIndex(stack(), 'GSI1', keys.jobsByStatus('open'))).filter((item) => ids.includes(item.id as string));
    expect(new Set(stored.map((item) => item.gsi1pk)).size).toBe(Math.min(3, LIST_SHARDS));

    // The whole feed, two a page: one list, newest first, each job once.
    const feed: JobCardSummary[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Page<JobCardSummary> } = await api<Page<JobCardSummary>>(stack(), 'GET', `/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      feed.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(feed.map((job) => job.createdAt)).toEqual(feed.map((job) => job.createdAt).sort().reverse());
    expect(new Set(feed.map((job) => job.id)).size).toBe(feed.length);
    expect(feed.filter((job) => ids.includes(job.id)).map((job) => job.id)).toEqual([...ids].reverse());
  });

  it('refuses job posts from workers, anonymous callers and bad input with the spec texts', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const refused = await api(stack(), 'POST', '/jobs', { token: worker.idToken, body: validJob });
    expect(refused).toEqual({ status: 403, body: { error: MSG.jobs.onlyPostersCanCreate } });

    expect((await api(stack(), 'POST', '/jobs', { body: validJob })).status).toBe(401);
    expect((await api(stack(), 'POST', '/jobs', { token: 'forged.token.value', body: validJob })).status).toBe(401);

    const poster = await createPoster(stack());
    const cases: Array<[object, string]> = [
      [{ title: '' }, MSG.jobForm.titleRequired],
      [{ title: 'x'.repeat(101) }, MSG.jobForm.titleTooLong],
      [{ description: 'x'.repeat(2001) }, MSG.jobForm.descriptionTooLong],
      [{ payment: 0 }, MSG.jobForm.paymentPositive],
      [{ payment: 100_001 }, MSG.jobForm.paymentTooLarge],
      [{ category: 'Juggling' }, MSG.jobForm.categoryRequired],
      [{ duration: '   ' }, MSG.jobForm.durationRequired],
      [{ address: { street: '1 A St', city: '', state: 'TX' } }, MSG.jobForm.cityRequired],
    ];
    for (const [change, message] of cases) {
      const response = await api<{ error: string }>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...validJob, ...change } });
      expect(response.status, message).toBe(400);
      expect(response.body.error).toBe(message);
    }
    const malformed = await api<{ error: string }>(stack(), 'POST', '/jobs', { token: poster.idToken, body: '{not json' });
    expect(malformed).toEqual({ status: 400, body: { error: MSG.backend.invalidJson } });
  });

  it('answers 404 with the spec text for a job that does not exist', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const missing = await api(stack(), 'GET', '/jobs/does-not-exist', { token: worker.idToken });
    expect(missing).toEqual({ status: 404, body: { error: MSG.jobs.notFound } });
  });
});
