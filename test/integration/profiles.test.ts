import { describe, expect, it } from 'vitest';
import type { OwnProfile, PublicProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/table.js';
import { api, createUser, queryIndex, tableClient, useLocalStack } from '../support/local-stack.js';
import { awaitFreshWindow } from '../support/rate-limits.js';

describe('profiles', () => {
  const stack = useLocalStack();

  it('updates the own profile with sanitised, validated input', async () => {
    const worker = await createUser(stack(), { role: 'worker', name: 'Wes Worker' });
    const updated = await api<OwnProfile>(stack(), 'PATCH', '/me', {
      token: worker.idToken,
      body: { name: '  Wes <b>W.</b> ', bio: 'I fix things.', skills: [' Plumbing ', 'Plumbing', '', 'Painting'], location: 'Austin, TX' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Wes W.', bio: 'I fix things.', skills: ['Plumbing', 'Painting'], location: 'Austin, TX' });

    const publicView = await api<PublicProfile>(stack(), 'GET', `/profiles/${worker.userId}`, { token: worker.idToken });
    expect(publicView.body).toMatchObject({ name: 'Wes W.', skills: ['Plumbing', 'Painting'], rating: null, completedJobs: 0 });
    expect(publicView.body).not.toHaveProperty('email');
    expect(publicView.body).not.toHaveProperty('paymentAccount');
  });

  it('refuses invalid values with the spec texts and writes nothing', async () => {
    const worker = await createUser(stack(), { role: 'worker', name: 'Vera' });
    const cases: Array<[object, string]> = [
      [{ bio: 'hi <script>alert(1)</script>' }, MSG.profile.bioInvalid],
      [{ bio: 'x'.repeat(501) }, 'Bio must be at most 500 characters'],
      [{ skills: Array.from({ length: 21 }, (_, i) => `skill ${i}`) }, MSG.profile.maxSkills],
      [{ name: '   ' }, 'Name is required'],
    ];
    for (const [body, message] of cases) {
      const response = await api<{ error: string }>(stack(), 'PATCH', '/me', { token: worker.idToken, body });
      expect(response.status, message).toBe(400);
      expect(response.body.error).toBe(message);
    }
    const me = await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken });
    expect(me.body).toMatchObject({ name: 'Vera', bio: '', skills: [] });
  });

  it('refuses protected fields and records a security event for the admin', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    for (const body of [{ role: 'admin' }, { rating: 5 }, { completed_jobs: 100 }, { stripeAccountStatus: 'complete' }, { stripe_account_id: 'acct_x', bio: 'ok' }]) {
      const response = await api(stack(), 'PATCH', '/me', { token: worker.idToken, body });
      expect(response).toEqual({ status: 403, body: { error: MSG.profile.securityValidationFailed } });
    }
    const me = await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken });
    expect(me.body.role).toBe('worker');
    const events = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((item) => item.targetId === worker.userId);
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({ actionType: 'profile_security_violation', adminId: 'system', targetType: 'profile' });
  });

  it('grows the penalty by 5 seconds per violation', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const update = () => api<{ error: string }>(stack(), 'PATCH', '/me', { token: worker.idToken, body: { bio: 'x' } });
    await awaitFreshWindow('profileUpdate', 20);
    for (let i = 0; i < 3; i++) expect((await update()).status).toBe(200);
    const penalty = async () => {
      const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.rateCounter('profile-penalty', worker.userId, 0) }));
      return { violations: Item?.violations as number, waits: Math.round(Number(Item?.blockedUntil) - Date.now() / 1000) };
    };
    expect((await update()).status).toBe(429);
    expect(await penalty()).toMatchObject({ violations: 1, waits: expect.toBeOneOf([4, 5]) });
    // While the penalty runs, attempts are refused without adding to it.
    expect((await update()).status).toBe(429);
    expect((await penalty()).violations).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    expect((await update()).status).toBe(429);
    expect(await penalty()).toMatchObject({ violations: 2, waits: expect.toBeOneOf([9, 10]) });
  }, 60_000);

  it('allows 3 updates per 5 minutes, then answers 429 with a growing penalty', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const update = (bio: string) => api<{ error: string }>(stack(), 'PATCH', '/me', { token: worker.idToken, body: { bio } });
    await awaitFreshWindow('profileUpdate', 20);
    const results = await Promise.all([update('a'), update('b'), update('c'), update('d'), update('e')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.error).toMatch(/^Too many profile updates\. Please wait \d+ seconds and try again\.$/);
  });
});
