import { describe, expect, it } from 'vitest';
import type { JobCardSummary, JobSummary, Page } from '../../shared/api.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { keys } from '../../functions/table.js';
import { ruleFunctionName } from '../../infra/local/eventbridge.js';
import { meterDynamoDb, type DynamoDbMeter } from '../bench/report.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const base = {
  address: { street: '1 Main St', city: 'Austin', state: 'TX' },
  payment: 3000,
  date: new Date().toISOString().slice(0, 10),
  duration: '1 hour',
};

describe('searching and filtering open jobs', () => {
  const stack = useLocalStack();
  let poster: TestUser;
  const titles = (page: Page<JobCardSummary>) => page.items.map((job) => job.title);
  const search = async (query: string, token?: string) => (await api<Page<JobCardSummary>>(stack(), 'GET', `/${token ? 'feed/' : ''}jobs?${query}`, { token })).body;

  it('finds jobs by words and prefixes of title, description, category and location, case-insensitively', async () => {
    poster = await createPoster(stack());
    const post = (body: object) => postPaidJob(stack(), poster, { ...base, ...body });
    await post({ title: 'Deep Cleaning of a Kitchen', description: 'Scrub the oven.', category: 'Cleaning' });
    await post({ title: 'Move boxes', description: 'Ten boxes to a storage unit.', category: 'Moving', address: { street: '9 Oak', city: 'Round Rock', state: 'TX' } });
    await post({ title: 'Walk Rex', description: 'A gentle dog who loves the park.', category: 'Pet Care' });
    await stack().events.idle();

    expect(titles(await search('q=CLEAN'))).toEqual(['Deep Cleaning of a Kitchen']);
    expect(titles(await search('q=oven'))).toEqual(['Deep Cleaning of a Kitchen']);
    expect(titles(await search('q=round%20rock'))).toEqual(['Move boxes']);
    expect(titles(await search('q=pet'))).toEqual(['Walk Rex']);
    expect(titles(await search('q=dog%20park'))).toEqual(['Walk Rex']);
    expect(titles(await search('q=dog%20kitchen'))).toEqual([]);
    expect(titles(await search('q=austin'))).toEqual(['Walk Rex', 'Deep Cleaning of a Kitchen']);
    expect(titles(await search('q=nothing-like-this'))).toEqual([]);
  });

  it('filters by category, alone or with words', async () => {
    expect(titles(await search('category=Moving'))).toEqual(['Move boxes']);
    expect(titles(await search('category=Cleaning&q=austin'))).toEqual(['Deep Cleaning of a Kitchen']);
    expect((await api(stack(), 'GET', '/jobs?category=Juggling')).status).toBe(400);
  });

  it('never shows a signed-in user their own jobs', async () => {
    expect(titles(await search('q=austin', poster.idToken))).toEqual([]);
    const worker = await createUser(stack(), { role: 'worker' });
    expect(titles(await search('q=austin', worker.idToken))).toHaveLength(2);
  });

  // Gazebo jobs, newest first; the even ones are cedar. Made through the domain code, as the seed does, to be many quickly.
  const gazeboTitles = Array.from({ length: 21 }, (_, i) => `${i % 2 ? 'Pine' : 'Cedar'} gazebo number ${21 - i}`);
  let meter: DynamoDbMeter;

  it('answers a page of 20 from the index items alone: one Query of at most 2.5 capacity units', async () => {
    // Imported now: the domain modules create their SDK clients from the stack's environment.
    const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
    const { syncSearchTerms } = await import('../../functions/search/job-search.js');
    const now = Date.now();
    await Promise.all(
      gazeboTitles.map(async (title, i) => {
        const request = createJobSchema.parse({
          ...base,
          title,
          description: 'Build a garden gazebo from a kit on a level gravel pad. Lumber, hardware and the instructions are on site; bring your own drill and a ladder.',
          category: 'Yard Work',
          skills: ['Carpentry', 'Outdoor building'],
        });
        const job = newJob(request, poster.userId, new Date(now - i * 60_000).toISOString());
        await putNewJob(job);
        await syncSearchTerms(job.id);
      }),
    );
    // The jobs' events reach their consumers (and the live feed's queue) first: the meter counts the search's calls alone.
    await stack().events.idle();
    await stack().queues.idle();
    meter = meterDynamoDb(stack());

    for (const query of ['q=gazebo', 'category=Yard%20Work', 'q=gazebo&category=Yard%20Work', 'q=garden%20gazebo']) {
      meter.reset();
      const page = await search(`${query}&limit=20`);
      expect({ query, titles: titles(page) }).toEqual({ query, titles: gazeboTitles.slice(0, 20) });
      expect({ query, calls: meter.calls, queries: meter.queries }).toEqual({ query, calls: 1, queries: 1 });
      expect(meter.capacity).toBeLessThanOrEqual(2.5);
    }
  });

  it('pages a filtered search through the same jobs in the same order, whatever the page size', async () => {
    const cedar = gazeboTitles.filter((title) => title.startsWith('Cedar'));
    const pagedBy = async (query: string, limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<JobCardSummary> = await search(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...titles(page));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    for (const limit of [1, 3, 4, 50]) {
      expect({ limit, titles: await pagedBy('q=cedar%20gazebo', limit) }).toEqual({ limit, titles: cedar });
      expect({ limit, titles: await pagedBy('q=gazebo%20cedar&category=Yard%20Work', limit) }).toEqual({ limit, titles: cedar });
    }
  });

  it('serves a card as its job was edited, from the term items once the index caught up', async () => {
    const { items } = await search('q=gazebo&limit=1');
    const { id } = items[0]!;
    const longDescription = `${'Sand and stain every post and rail of the gazebo. '.repeat(12)}Two coats.`;
    const edited = await api<JobSummary>(stack(), 'PUT', `/jobs/${id}`, {
      token: poster.idToken,
      body: { ...base, title: 'Stain a cedar gazebo', description: longDescription, category: 'Yard Work', payment: 4500, skills: ['Staining'] },
    });
    expect(edited.status).toBe(200);
    await stack().events.idle();
    await stack().queues.idle();

    meter.reset();
    const [card] = (await search('q=stain&limit=20')).items;
    expect(meter.calls).toBe(1);
    expect(card).toEqual({
      id,
      title: 'Stain a cedar gazebo',
      description: expect.stringMatching(/^Sand and stain every post and rail of the gazebo\. .*…$/),
      location: 'Austin, TX',
      payment: 4500,
      postedAmount: edited.body.postedAmount,
      status: 'open',
      posterId: poster.userId,
      skills: ['Staining'],
      images: [],
      verifiedWorkersOnly: false,
      openToOffers: false,
      createdAt: edited.body.createdAt,
    });
    // The card keeps what its three lines can show, cut between words; the job keeps it all.
    const shown = card!.description.slice(0, -1);
    expect(shown.length).toBeLessThanOrEqual(300);
    expect(longDescription.startsWith(`${shown} `)).toBe(true);
    expect(edited.body.description).toBe(longDescription);
    const termItems = await queryIndex(stack(), 'GSI1', keys.jobsWithTerm('stain'));
    expect(termItems.find((item) => item.pk === keys.jobPartition(id))).toMatchObject({ card: { title: 'Stain a cedar gazebo', postedAmount: edited.body.postedAmount } });
    // The old title's words no longer find it.
    expect((await search('q=number&limit=50')).items.map((job) => job.id)).not.toContain(id);
  });

  it('leaves out a term item written before items carried the card, instead of failing the page', async () => {
    const { db, tableName } = await import('../../functions/lib/db.js');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { timeOrdered } = await import('../../functions/table.js');
    const jobId = '00000000-0000-4000-8000-00000000c0de';
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.jobTerm(jobId, 'stain'), type: 'jobTerm', jobId, terms: new Set(['stain']), gsi1pk: keys.jobsWithTerm('stain'), gsi1sk: timeOrdered(new Date().toISOString(), jobId) },
      }),
    );
    const page = await api<Page<JobCardSummary>>(stack(), 'GET', '/jobs?q=stain');
    expect(page.status).toBe(200);
    expect(titles(page.body)).toEqual(['Stain a cedar gazebo']);
  });

  it("completes a card written before cards carried the payment from its job, and the job's next sync rewrites it", async () => {
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { syncSearchTerms } = await import('../../functions/search/job-search.js');
    const [job] = (await search('q=stain')).items;
    const termItem = (await queryIndex(stack(), 'GSI1', keys.jobsWithTerm('stain'))).find((item) => item.pk === keys.jobPartition(job!.id))!;
    const { payment, ...oldCard } = termItem.card as JobCardSummary;
    expect(payment).toBe(4500);
    await tableClient(stack()).send(new PutCommand({ TableName: stack().tableName, Item: { ...termItem, card: oldCard } }));

    const [card] = (await search('q=stain')).items;
    expect(card).toEqual(job);

    expect((await syncSearchTerms(job!.id)).written).toBeGreaterThan(0);
    const rewritten = (await queryIndex(stack(), 'GSI1', keys.jobsWithTerm('stain'))).find((item) => item.pk === keys.jobPartition(job!.id))!;
    expect(rewritten.card).toMatchObject({ payment: 4500 });
  });

  it('runs the job rules only for the changes they act on: work and payment on a job that left open run neither the index, the geocoding nor the flags', async () => {
    const [owner, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const call = (user: TestUser, method: string, path: string, body: unknown = {}) => api(stack(), method, path, { token: user.idToken, body });
    const job = await postOpenJob(stack(), owner, { title: 'Rake the autumn leaves' });
    await stack().events.idle();
    const rules = ['searchIndex', 'geocoding', 'jobFlags', 'marketStats', 'jobFeed'] as const;
    const counts = () => rules.map((rule) => stack().functions.invocationCounts().get(ruleFunctionName(rule)) ?? 0);
    /** How many times each rule ran for a step, once its events were delivered. */
    const runsFor = async (step: () => Promise<{ status: number }>) => {
      const before = counts();
      expect((await step()).status).toBeOneOf([200, 201]);
      await stack().events.idle();
      return Object.fromEntries(counts().map((count, i) => [rules[i], count - before[i]!]));
    };

    expect(titles(await search('q=autumn'))).toEqual(['Rake the autumn leaves']);
    // Neither the search card nor the market figures show the applicant count; the job's page does, live.
    expect(await runsFor(() => call(worker, 'POST', `/jobs/${job.id}/applications`))).toEqual({ searchIndex: 0, geocoding: 0, jobFlags: 0, marketStats: 0, jobFeed: 1 });
    // Assigned, the job leaves the index and the market's open jobs.
    expect(await runsFor(() => call(owner, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`))).toMatchObject({ searchIndex: 1, geocoding: 0, jobFlags: 0, marketStats: 1 });
    expect(titles(await search('q=autumn'))).toEqual([]);
    // From here on the job is never open: the index has nothing to do.
    expect(await runsFor(() => call(worker, 'POST', `/jobs/${job.id}/complete`))).toMatchObject({ searchIndex: 0, geocoding: 0, jobFlags: 0, marketStats: 1 });
    const paid = await runsFor(() => call(owner, 'POST', `/jobs/${job.id}/release-payment`));
    expect(paid).toMatchObject({ searchIndex: 0, geocoding: 0, jobFlags: 0 });
    expect(paid.marketStats).toBeGreaterThan(0);
  });
});
