import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { ApiRequestError, createApiClient } from '../../web/src/lib/api/client.js';
import { createQueryClient } from '../../web/src/lib/api/query-client.js';

/** The server's answer while a dependency is busy (functions/lib/transient-errors.ts). */
const busy = () => new Response(JSON.stringify({ error: MSG.backend.unavailable }), { status: 503, headers: { 'retry-after': '2' } });

describe("the web app retries a read when the server asks it to, as late as it asks", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("retries a 503 once, after its Retry-After, and reads the answer", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(busy()).mockResolvedValueOnce(new Response(JSON.stringify({ ok: true })));
    vi.stubGlobal('fetch', fetch);
    const api = createApiClient('http://api.test', async () => null);
    const queries = createQueryClient();
    const failed = await api.get('/jobs').catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 503, message: MSG.backend.unavailable, retryAfterSeconds: 2 });

    const { retry, retryDelay } = queries.getDefaultOptions().queries!;
    expect(typeof retry === 'function' && retry(0, failed as ApiRequestError)).toBe(true);
    expect(typeof retryDelay === 'function' && retryDelay(1, failed as ApiRequestError)).toBe(2000);
    expect(await api.get('/jobs')).toEqual({ ok: true });
  });

  it('retries a 429 only when it says when, and never a plain 4xx', () => {
    const { retry } = createQueryClient().getDefaultOptions().queries!;
    const ask = (error: Error) => typeof retry === 'function' && retry(0, error);
    expect(ask(new ApiRequestError(429, MSG.backend.tooManyRequests, {}, 1))).toBe(true);
    expect(ask(new ApiRequestError(429, MSG.backend.tooManyRequests))).toBe(false);
    expect(ask(new ApiRequestError(404, MSG.backend.notFound))).toBe(false);
  });
});
