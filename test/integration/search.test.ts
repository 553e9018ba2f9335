import { describe, expect, it } from 'vitest';
import type { AppNotification, JobCardSummary, JobSummary, Page, SavedSearch } from '../../shared/api.js';
import type { JobCategory } from '../../shared/categories.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { MSG } from '../../shared/messages.js';
import { ruleFunctionName } from '../../infra/local/eventbridge.js';
import { meterDynamoDb } from '../bench/report.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const base = {
  address: { street: '1 Main St', city: 'Austin', state: 'TX' },
  payment: 3000,
  date: new Date().toISOString().slice(0, 10),
  duration: '1 hour',
  category: 'Handyman',
};

/** More than 60 words before the last, which the index of before never reached. */
const LONG_DESCRIPTION = `The dishwasher stopped draining last week. ${Array.from({ length: 70 }, (_, i) => `step${i}`).join(' ')} Bring a spare gasket.`;

describe('searching open jobs (issue 46)', () => {
  const stack = useLocalStack();
  let poster: TestUser;
  const titles = (page: Page<JobCardSummary>) => page.items.map((job) => job.title);
  const search = async (query: string, token?: string) => {
    const answer = await api<Page<JobCardSummary>>(stack(), 'GET', `/${token ? 'feed/' : ''}jobs?${query}`, { token });
    expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    return answer.body;
  };

  it('finds parts of words, forgives typos and reads every word of a description, marking what it matched', async () => {
    poster = await createPoster(stack());
    const post = (body: object) => postPaidJob(stack(), poster, { ...base, ...body });
    await post({ title: 'Dishwasher repair', description: LONG_DESCRIPTION, category: 'Handyman', skills: ['Appliances'] });
    await post({ title: 'Plumbing leak under sink', description: 'The trap drips into the cabinet.', category: 'Handyman' });
    await post({ title: 'Clean the gutters', description: 'Two-storey house, leaves everywhere.', category: 'Yard Work', skills: ['Ladders'] });
    await stack().events.idle();

    expect(titles(await search('q=washer'))).toEqual(['Dishwasher repair']);
    expect(titles(await search('q=dishwashr'))).toEqual(['Dishwasher repair']);
    expect(titles(await search('q=plumbng'))).toEqual(['Plumbing leak under sink']);
    expect(titles(await search('q=gutetr'))).toEqual(['Clean the gutters']);
    expect(titles(await search('q=gasket'))).toEqual(['Dishwasher repair']);
    expect(titles(await search('q=LEAK%20sink'))).toEqual(['Plumbing leak under sink']);
    expect(titles(await search('q=leak%20gutters'))).toEqual([]);
    expect(titles(await search('q=helicopter'))).toEqual([]);

    const [washer] = (await search('q=washer')).items;
    expect(washer!.matchedWords).toEqual(['washer']);
    const [typo] = (await search('q=dishwashr')).items;
    expect(typo!.matchedWords).toEqual(['dishwasher']);
  });

  // Posting is limited to 3 payments a minute per poster: each test posts as posters of its own.
  let secondPoster: TestUser;

  it('ranks a title match over a category or skill over the description, and filters by category', async () => {
    secondPoster = await createPoster(stack());
    const post = (body: object) => postPaidJob(stack(), secondPoster, { ...base, ...body });
    await post({ title: 'Garage tidy', description: 'Hang the ladders on the wall.', category: 'Cleaning' });
    await post({ title: 'Ladders to carry', description: 'Three aluminium ones.', category: 'Moving' });
    await stack().events.idle();
    expect(titles(await search('q=ladders'))).toEqual(['Ladders to carry', 'Clean the gutters', 'Garage tidy']);
    expect(titles(await search('q=ladders&category=Yard%20Work'))).toEqual(['Clean the gutters']);
    expect(titles(await search('category=Moving'))).toEqual(['Ladders to carry']);
    expect((await api(stack(), 'GET', '/jobs?category=Juggling')).status).toBe(400);
  });

  it('never shows a signed-in user their own jobs', async () => {
    expect(titles(await search('q=ladders', poster.idToken))).toEqual(['Ladders to carry', 'Garage tidy']);
    expect(titles(await search('q=ladders', secondPoster.idToken))).toEqual(['Clean the gutters']);
    const worker = await createUser(stack(), { role: 'worker' });
    expect(titles(await search('q=ladders', worker.idToken))).toHaveLength(3);
  });

  it('pages through the same results in the same order, whatever the page size', async () => {
    const all = titles(await search('q=ladders&limit=50'));
    for (const limit of [1, 2]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<JobCardSummary> = await search(`q=ladders&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...titles(page));
        cursor = page.nextCursor;
      } while (cursor);
      expect({ limit, seen }).toEqual({ limit, seen: all });
    }
    expect((await api(stack(), 'GET', '/jobs?q=ladders&cursor=not-an-offset')).body).toEqual({ error: MSG.backend.invalidCursor });
  });

  it('never finds a job once it is assigned, cancelled or deleted, and finds it again as edited', async () => {
    const [owner, otherOwner, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const call = (user: TestUser, method: string, path: string, body: unknown = {}) => api(stack(), method, path, { token: user.idToken, body });
    const assign = async (job: JobSummary) => {
      expect((await call(worker, 'POST', `/jobs/${job.id}/applications`)).status).toBe(201);
      expect((await call(owner, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`)).status).toBe(200);
    };
    // The one edited is the other poster's: three posts are the most one poster may pay for in a minute.
    const [assigned, cancelled, deleted, edited] = await Promise.all(
      ['Paint the fence white', 'Paint the fence green', 'Paint the fence blue', 'Paint the fence red'].map((title, i) => postOpenJob(stack(), i < 3 ? owner : otherOwner, { title })),
    );
    await stack().events.idle();
    expect(titles(await search('q=fence&limit=50'))).toHaveLength(4);

    await assign(assigned!);
    await assign(cancelled!);
    expect((await call(owner, 'POST', `/jobs/${cancelled!.id}/cancel`)).status).toBe(200);
    expect((await call(owner, 'DELETE', `/jobs/${deleted!.id}`)).status).toBe(204);
    // The price is locked once paid: the edit keeps it.
    const form = { ...base, payment: edited!.payment, title: 'Stain the deck', description: 'Two coats of oil stain.', category: 'Yard Work' };
    expect((await call(otherOwner, 'PUT', `/jobs/${edited!.id}`, form)).status).toBe(200);
    await stack().events.idle();

    expect(titles(await search('q=fence&limit=50'))).toEqual([]);
    const [card] = (await search('q=stain')).items;
    expect(card).toMatchObject({ id: edited!.id, title: 'Stain the deck', description: 'Two coats of oil stain.', status: 'open' });
  });

  it('sorts and filters by distance from a worker in Austin, showing miles measured to each job’s area', async () => {
    const austinPosters = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'poster')]);
    // Zip codes in the street: the local geocoder places each job at its zip code's centre.
    const places = [
      { zip: '78666', city: 'San Marcos' },
      { zip: '78704', city: 'Austin' },
      { zip: '78664', city: 'Round Rock' },
      { zip: '78660', city: 'Pflugerville' },
    ];
    for (const [i, { zip, city }] of places.entries()) {
      await postOpenJob(stack(), austinPosters[i % 2]!, { title: `Mow a lawn in ${city}`, address: { street: `5 Elm St ${zip}`, city, state: 'TX' } });
    }
    await stack().events.idle();
    const worker = await createReadyUser(stack(), 'worker');
    expect((await api(stack(), 'GET', '/feed/jobs?near=me', { token: worker.idToken })).body).toMatchObject({ error: MSG.search.locationNeeded });
    expect((await api(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { zip: '78701', timeZone: 'America/Chicago' } })).status).toBe(200);

    const near = await search('q=mow&near=me', worker.idToken);
    expect(titles(near)).toEqual(['Mow a lawn in Austin', 'Mow a lawn in Pflugerville', 'Mow a lawn in Round Rock', 'Mow a lawn in San Marcos']);
    // Zip centres 2.4, 13.6, 17.4 and 29.8 miles from 78701's; each job's area (a cell of about a kilometre) moves it by less than half a mile.
    near.items.forEach((card, i) => expect(Math.abs(card.distanceMiles! - [2.4, 13.6, 17.4, 29.8][i]!)).toBeLessThan(0.5));
    expect(near.items.every((card) => card.area !== undefined)).toBe(true);
    expect(titles(await search('q=mow&near=me&radius=10', worker.idToken))).toEqual(['Mow a lawn in Austin']);
    expect(titles(await search('q=mow&near=me&radius=25', worker.idToken))).toEqual(['Mow a lawn in Austin', 'Mow a lawn in Pflugerville', 'Mow a lawn in Round Rock']);
    // Without words, the nearest first; the browser's own location works for anyone, signed in or not.
    expect(titles(await search('lat=30.2713&lng=-97.7426&radius=25')).filter((title) => title.startsWith('Mow'))).toEqual(titles(await search('q=mow&near=me&radius=25', worker.idToken)));

    expect((await api(stack(), 'GET', '/jobs?q=mow&lat=30.27')).body).toMatchObject({ error: MSG.search.coordinatesTogether });
    expect((await api(stack(), 'GET', '/jobs?q=mow&radius=10')).body).toMatchObject({ error: MSG.search.locationNeeded });
    expect((await api(stack(), 'GET', '/jobs?q=mow&lat=30.27&lng=-97.74&radius=7')).body).toMatchObject({ error: MSG.search.radiusChoice });
    expect((await api(stack(), 'GET', '/jobs?near=me')).body).toMatchObject({ error: MSG.search.locationNeeded });
  });

  it('answers a search from the function’s index after one Query for the changes since the last', async () => {
    await stack().events.idle();
    await search('q=mow');
    const meter = meterDynamoDb(stack());
    meter.reset();
    expect(titles(await search('q=mow&lat=30.2713&lng=-97.7426&radius=10'))).toEqual(['Mow a lawn in Austin']);
    // One Query of the hour's changes; two when the hour turned since the last search.
    expect(meter.calls).toBe(meter.queries);
    expect(meter.queries).toBeGreaterThanOrEqual(1);
    expect(meter.queries).toBeLessThanOrEqual(2);
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

  it('keeps up to ten saved searches per worker, only a worker’s, each around a place', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const save = (user: TestUser, body: object) => api<SavedSearch>(stack(), 'POST', '/me/saved-searches', { token: user.idToken, body });
    expect((await save(worker, { text: 'gutters', radiusMiles: 10 })).body).toMatchObject({ error: MSG.search.locationNeeded });
    expect((await save(poster, { text: 'gutters', radiusMiles: 10, latitude: 30.27, longitude: -97.74 })).body).toEqual({ error: MSG.search.onlyWorkersSave });
    expect((await save(worker, { text: 'gutters', radiusMiles: 7, latitude: 30.27, longitude: -97.74 })).body).toMatchObject({ error: MSG.search.radiusChoice });
    const saved = await Promise.all(Array.from({ length: 10 }, (_, i) => save(worker, { text: `word${i}`, radiusMiles: 5, latitude: 30.27, longitude: -97.74 })));
    expect(saved.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect((await save(worker, { text: 'one more', radiusMiles: 5, latitude: 30.27, longitude: -97.74 })).body).toEqual({ error: MSG.search.tooManySavedSearches });
    const removed = saved[3]!.body.id;
    expect((await api(stack(), 'DELETE', `/me/saved-searches/${removed}`, { token: worker.idToken })).status).toBe(204);
    expect((await api(stack(), 'DELETE', `/me/saved-searches/${removed}`, { token: worker.idToken })).body).toEqual({ error: MSG.search.savedSearchNotFound });
    expect((await save(worker, { text: 'one more', category: 'Yard Work', radiusMiles: 50, latitude: 30.27, longitude: -97.74 })).status).toBe(201);
    const list = (await api<{ items: SavedSearch[] }>(stack(), 'GET', '/me/saved-searches', { token: worker.idToken })).body.items;
    expect(list).toHaveLength(10);
    expect(list.map((search) => search.id)).not.toContain(removed);
    expect(list.at(-1)).toMatchObject({ text: 'one more', category: 'Yard Work', radiusMiles: 50 });
    // Nobody else's: another worker's list is their own.
    const other = await createReadyUser(stack(), 'worker');
    expect((await api<{ items: SavedSearch[] }>(stack(), 'GET', '/me/saved-searches', { token: other.idToken })).body.items).toEqual([]);
    expect((await api(stack(), 'DELETE', `/me/saved-searches/${list[0]!.id}`, { token: other.idToken })).status).toBe(404);
  });

  it('alerts a worker once per new job matching a saved search, never for one outside its radius or its words', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const call = (method: string, path: string, body?: unknown) => api(stack(), method, path, { token: worker.idToken, body });
    expect((await call('PUT', '/me/location', { zip: '78701', timeZone: 'America/Chicago' })).status).toBe(200);
    // Nearby-job alerts off: what reaches the worker is their saved searches' alerts alone.
    expect((await call('PUT', '/me/notification-preferences', { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false })).status).toBe(200);
    for (const search of [
      { text: 'gutters', category: 'Yard Work', radiusMiles: 10 },
      { text: 'gutter clean', radiusMiles: 25 },
    ]) {
      expect((await call('POST', '/me/saved-searches', search)).status).toBe(201);
    }
    const owners = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'poster')]);
    let posted = 0;
    const post = (title: string, zip: string, city: string, category: JobCategory = 'Yard Work') =>
      postOpenJob(stack(), owners[posted++ % 2]!, { title, category, address: { street: `7 Oak St ${zip}`, city, state: 'TX' } });
    const near = await post('Clean the gutetrs and downspouts', '78704', 'Austin');
    await post('Clean the gutters of a barn', '78666', 'San Marcos');
    await post('Paint a fence', '78704', 'Austin');
    const cleaning = await post('Clean out gutters', '78660', 'Pflugerville', 'Cleaning');
    await stack().events.idle();
    await stack().events.idle();

    const { items } = (await call('GET', '/me/notifications')).body as { items: AppNotification[] };
    const alerts = items.filter((item) => item.type === 'saved_search_match');
    // The typo in the job's title is forgiven as a search forgives it; the barn is 30 miles away; the fence has none of the words;
    // Pflugerville (13.6 miles) is in Cleaning, outside the first search's category, but within the second's 25 miles.
    expect(alerts.map((alert) => alert.jobId).sort()).toEqual([near.id, cleaning.id].sort());
    const [nearAlert] = alerts.filter((alert) => alert.jobId === near.id);
    expect(nearAlert).toMatchObject({ title: MSG.search.alertTitle, message: expect.stringContaining('Clean the gutetrs and downspouts (Austin, TX) matches your saved search') });
    expect(items.filter((item) => item.type === 'new_job_nearby')).toEqual([]);
    // The rule run again for the same job (EventBridge delivers at least once): nothing new.
    const { alertSavedSearches } = await import('../../functions/search/saved-searches.js');
    const { getJob } = await import('../../functions/jobs/jobs.js');
    const job = (await getJob(near.id))!;
    expect(await alertSavedSearches(job, { latitude: job.latitude!, longitude: job.longitude! })).toMatchObject({ matched: 2, sent: 0 });
  });
});
