import { describe, expect, it } from 'vitest';
import type { JobSummary, Page } from '../../shared/api.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
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
  const titles = (page: Page<JobSummary>) => page.items.map((job) => job.title);
  const search = async (query: string, token?: string) => (await api<Page<JobSummary>>(stack(), 'GET', `/${token ? 'feed/' : ''}jobs?${query}`, { token })).body;

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
});
