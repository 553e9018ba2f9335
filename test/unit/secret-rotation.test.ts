import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from '../../shared/zod.js';
import { HttpError } from '../../functions/lib/errors.js';
import { secretJson } from '../../functions/lib/secret-json.js';
import { DEFAULT_SECRET_MAX_AGE_SECONDS } from '../../functions/routes.js';

const SECRET_MAX_AGE_MS = DEFAULT_SECRET_MAX_AGE_SECONDS * 1000;
import { verifiedEvent } from '../../functions/lib/stripe.js';

describe('keys that can be rotated', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Keys read from what `source` holds at each read (the secret as the operator edits it). */
  function rotatingKeys() {
    const source = { json: JSON.stringify({ secretKey: 'sk_test_old' }) as string | undefined, reads: 0 };
    const keys = secretJson({
      name: 'Test keys',
      schema: z.object({ secretKey: z.string().check(z.startsWith('sk_')) }),
      secretArn: () => undefined,
      localJson: () => {
        source.reads++;
        return source.json;
      },
      unavailable: () => new HttpError(503, 'Payments are temporarily unavailable'),
    });
    return { source, keys };
  }

  it('uses the keys read for a while, then reads the rotated ones: every container has them within the default maximum age', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { source, keys } = rotatingKeys();
    expect(await keys()).toEqual({ secretKey: 'sk_test_old' });
    source.json = JSON.stringify({ secretKey: 'sk_test_new' });
    vi.setSystemTime(Date.now() + SECRET_MAX_AGE_MS - 1);
    expect(await keys()).toEqual({ secretKey: 'sk_test_old' });
    expect(source.reads).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await keys()).toEqual({ secretKey: 'sk_test_new' });
    expect(source.reads).toBe(2);
  });

  it('reads the keys again at once when the service refused them, and keeps them should that read fail', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { source, keys } = rotatingKeys();
    expect(await keys()).toEqual({ secretKey: 'sk_test_old' });
    source.json = JSON.stringify({ secretKey: 'sk_test_new' });
    keys.readAgain();
    expect(await keys()).toEqual({ secretKey: 'sk_test_new' });
    expect(source.reads).toBe(2);
    // Kept again for their maximum age.
    expect(await keys()).toEqual({ secretKey: 'sk_test_new' });
    expect(source.reads).toBe(2);
    source.json = 'half-edited {';
    keys.readAgain();
    expect(await keys()).toEqual({ secretKey: 'sk_test_new' });
  });

  it('keeps the last keys while a later read fails (no request fails for it), and refuses with unavailable() while none was ever read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { source, keys } = rotatingKeys();
    expect(await keys()).toEqual({ secretKey: 'sk_test_old' });
    source.json = 'half-edited {';
    vi.setSystemTime(Date.now() + SECRET_MAX_AGE_MS);
    expect(await keys()).toEqual({ secretKey: 'sk_test_old' });
    // Read again on the next call, not kept as a failure.
    source.json = JSON.stringify({ secretKey: 'sk_test_new' });
    expect(await keys()).toEqual({ secretKey: 'sk_test_new' });

    const fresh = rotatingKeys();
    fresh.source.json = undefined;
    await expect(fresh.keys()).rejects.toMatchObject({ status: 503 });
    fresh.source.json = JSON.stringify({ secretKey: 'sk_test_filled' });
    expect(await fresh.keys()).toEqual({ secretKey: 'sk_test_filled' });
  });

  it("accepts a webhook delivery signed with the endpoint's secret or, during a rotation, the one before it, and no other", () => {
    const payload = JSON.stringify({ id: 'evt_rotation', object: 'event', type: 'payment_intent.succeeded', data: { object: {} } });
    const signedWith = (secret: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const [current, previous] = ['whsec_current', 'whsec_previous'];
    expect(verifiedEvent(Stripe, payload, signedWith(current), [current, previous])?.id).toBe('evt_rotation');
    expect(verifiedEvent(Stripe, payload, signedWith(previous), [current, previous])?.id).toBe('evt_rotation');
    expect(verifiedEvent(Stripe, payload, signedWith(previous), [current])).toBeUndefined();
    expect(verifiedEvent(Stripe, payload, signedWith('whsec_other'), [current, previous])).toBeUndefined();
  });
});
