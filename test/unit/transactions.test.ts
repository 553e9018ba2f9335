import { describe, expect, it } from 'vitest';
import { HttpError } from '../../functions/lib/errors.js';
import { LostRace, TransactionRefused, retryLostRaces, retryWhileStale } from '../../functions/lib/transactions.js';

/** Fails with `error` the first `times` calls, then answers 'done'; counts the calls. */
function flaky(times: number, error: () => Error) {
  let calls = 0;
  const operation = async () => {
    calls++;
    if (calls <= times) throw error();
    return 'done';
  };
  return { operation, calls: () => calls };
}

describe('retrying operations that lost a race', () => {
  it('runs again after a lost race, waiting a random time below a doubling ceiling', async () => {
    const waits: number[] = [];
    const { operation, calls } = flaky(3, () => new LostRace());
    const result = await retryLostRaces(operation, { baseDelayMs: 10, sleep: async (ms) => void waits.push(ms) });
    expect(result).toBe('done');
    expect(calls()).toBe(4);
    expect(waits).toHaveLength(3);
    waits.forEach((ms, attempt) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(10 * 2 ** attempt);
    });
  });

  it('answers a clear 409 once every attempt lost, and passes other errors through at once', async () => {
    const sleep = async () => undefined;
    const lost = flaky(Infinity, () => new LostRace());
    const error = await retryLostRaces(lost.operation, { attempts: 3, exhaustedMessage: 'Busy', sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 409, message: 'Busy' });
    expect(lost.calls()).toBe(3);

    const broken = flaky(1, () => new Error('boom'));
    await expect(retryLostRaces(broken.operation, { sleep })).rejects.toThrow('boom');
    expect(broken.calls()).toBe(1);
  });

  it('treats a refused transaction as stale state when the step cannot explain it itself', async () => {
    const sleep = async () => undefined;
    const stale = flaky(1, () => new TransactionRefused(['None', 'ConditionalCheckFailed']));
    expect(await retryWhileStale(stale.operation, { sleep })).toBe('done');
    expect(stale.calls()).toBe(2);

    const explained = flaky(1, () => new HttpError(409, 'You have already applied for this job'));
    await expect(retryWhileStale(explained.operation, { sleep })).rejects.toThrow('You have already applied for this job');
    expect(explained.calls()).toBe(1);
  });
});
