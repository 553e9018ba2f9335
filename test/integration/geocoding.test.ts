import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../functions/table.js';
import { api, tableClient, useLocalStack } from '../support/local-stack.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const form = {
  title: 'Paint a fence',
  description: 'White paint, one coat.',
  address: { street: '1 Congress Ave', city: 'Austin', state: 'TX' },
  payment: 6000,
  category: 'Home Projects',
  date: new Date().toISOString().slice(0, 10),
  duration: '3 hours',
};

describe('geocoding', () => {
  const stack = useLocalStack();

  it('stores coordinates and a geohash for a known city, and nothing for an unknown one', async () => {
    const poster = await createPoster(stack());
    const known = await postPaidJob(stack(), poster, form);
    const unknown = await postPaidJob(stack(), poster, { ...form, address: { street: '1 Main', city: 'Nowhereville', state: 'ZZ' } });
    await stack().events.idle();
    const item = async (id: string) => (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.job(id) }))).Item!;
    const located = await item(known.id);
    expect(located.latitude).toBeCloseTo(30.3, 0);
    expect(located.longitude).toBeCloseTo(-97.7, 0);
    expect(located.geohash).toMatch(/^9v6/);
    expect((await item(unknown.id)).latitude).toBeUndefined();
    // Coordinates stay private.
    const detail = await api<Record<string, unknown>>(stack(), 'GET', `/jobs/${known.id}`, { token: poster.idToken });
    expect(detail.body).not.toHaveProperty('latitude');
  });
});
