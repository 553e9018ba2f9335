import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { api, createUser, useLocalStack } from '../support/local-stack.js';
import { LiveSocket } from '../support/live-socket.js';
import { awaitFreshWindow } from '../support/rate-limits.js';

const BUDGET = 3;

describe('per-client budgets', () => {
  const stack = useLocalStack({ clientBudgetPerMinute: BUDGET });

  it("answers a user's write beyond the minute's budget 429 with Retry-After; reads and other users go on", async () => {
    const [spender, other] = await Promise.all([createUser(stack(), { role: 'worker' }), createUser(stack(), { role: 'poster' })]);
    await awaitFreshWindow('clientWrites', 25);
    for (let i = 0; i < BUDGET; i++) {
      expect((await api(stack(), 'POST', '/me/notifications/read-all', { token: spender.idToken })).status).toBe(200);
    }
    const refused = await fetch(`${stack().urls.api}/me/notifications/read-all`, { method: 'POST', headers: { authorization: `Bearer ${spender.idToken}` } });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RATE_LIMITS.clientWrites.windowSeconds);
    expect(await refused.json()).toMatchObject({ error: MSG.backend.tooManyRequests });

    expect((await api(stack(), 'GET', '/me', { token: spender.idToken })).status).toBe(200);
    expect((await api(stack(), 'POST', '/me/notifications/read-all', { token: other.idToken })).status).toBe(200);
  });

  it('refuses socket connects beyond the budget, a visitor counted by address, a user by user', async () => {
    const user = await createUser(stack(), { role: 'worker' });
    await awaitFreshWindow('clientWrites', 25);
    const visitors = [];
    for (let i = 0; i < BUDGET; i++) visitors.push(await LiveSocket.open(stack().urls.webSocket));
    await expect(LiveSocket.open(stack().urls.webSocket)).rejects.toThrow(/refused/);
    // The same address, signed in: the user's own budget.
    const signedIn = await LiveSocket.open(stack().urls.webSocket, user.idToken);
    await Promise.all([...visitors, signedIn].map((socket) => socket.close()));
  });
});
