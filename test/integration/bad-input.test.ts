import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../shared/api.js';
import { JOB_CATEGORIES } from '../../shared/categories.js';
import { postOpenJob } from '../support/job-lifecycle.js';
import { createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';
import { DEEP_BODIES, DECLARED_ROUTES, encodeBytes, fillPath, hostileString, requestBodyArbitrary, type RequestBody } from '../support/routes.js';
import { UNTHROTTLED } from '../../infra/local/stage-throttle.js';

/**
 * Requests per route: bounded so the whole file stays under two minutes on a busy 2-core
 * machine (some bodies are megabytes of structure).
 */
const RUNS_PER_ROUTE = 40;

describe('no user input ever gets a 500 (property-based, every declared route)', () => {
  // Thousands of attacks as fast as the stack answers: the stage throttle (tested on its own) would answer some 429.
  // Nor the per-client budget: three callers send every route's attacks within minutes.
  const stack = useLocalStack({ httpLimits: { throttle: UNTHROTTLED }, clientBudgetPerMinute: Infinity });
  const callers: Record<string, TestUser | undefined> = { anonymous: undefined };
  let job: JobSummary;

  beforeAll(async () => {
    const [poster, worker, admin] = await Promise.all([createPoster(stack()), createUser(stack(), { role: 'worker' }), createUser(stack(), { role: 'admin' })]);
    Object.assign(callers, { poster, worker, admin });
    job = await postOpenJob(stack(), poster);
  }, 120_000);

  /** Path ids: real ones (so handlers get past the lookup), well-formed unknown ones, and hostile ones. */
  const idSegment = () =>
    fc.oneof(
      { arbitrary: fc.constantFrom(job.id, callers.poster!.userId, callers.worker!.userId, randomUUID(), 'pi_doesnotexist').map(encodeURIComponent), weight: 3 },
      hostileString.map(encodeBytes),
      fc.constantFrom('%', '%E0%A4%A', '%ED%A0%80', '%FF', '%C0%AF', '%00', 'a'.repeat(4000), '..', '%2F..%2F', '__proto__', 'constructor', 'prototype', '9007199254740993', '1e400', 'NaN'),
    );

  /** Query strings with the parameters routes read (cursor, limit, q, category) and junk ones. */
  const queryString = () =>
    fc
      .record(
        {
          cursor: fc.oneof(hostileString, fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value) ?? '').toString('base64url'))),
          limit: fc.oneof(fc.integer().map(String), hostileString, fc.constantFrom('1e308', '-1', 'NaN', '0x10')),
          q: hostileString,
          category: fc.oneof(fc.constantFrom(...JOB_CATEGORIES), hostileString),
          junk: hostileString,
          // Computed, or the literal would set the record's prototype instead of naming a key.
          ['__proto__']: hostileString,
          constructor: hostileString,
        },
        { requiredKeys: [] },
      )
      .map((query) =>
        Object.entries(query)
          .map(([name, value]) => `${name}=${encodeBytes(value)}`)
          .join('&'),
      );

  it.each(DECLARED_ROUTES.map((route) => [route.routeKey, route]))('%s', async (_, route) => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(idSegment(), { minLength: route.params.length, maxLength: route.params.length }),
        route.method === 'GET' ? fc.constant(undefined) : requestBodyArbitrary(route.routeKey),
        queryString(),
        fc.constantFrom('anonymous', 'worker', 'poster', 'admin'),
        async (ids, request, query, who) => {
          const path = fillPath(route.template, (param) => ids[route.params.indexOf(param)]!);
          const user = callers[who];
          const response = await fetch(`${stack().urls.api}${path}?${query}`, {
            method: route.method,
            headers: {
              ...(user ? { authorization: `Bearer ${user.idToken}` } : {}),
              ...(request?.contentType ? { 'content-type': request.contentType } : {}),
              origin: 'javascript:alert(1)',
            },
            body: request?.body,
          });
          const sent = request ? `${request.contentType} ${(typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('hex')).slice(0, 80)}` : '';
          if (response.status >= 500) failures.push(`${who} ${route.method} ${path.slice(0, 80)}?${query.slice(0, 80)} ${sent} -> ${response.status} ${await response.text()}`);
          return response.status < 500;
        },
      ),
      {
        numRuns: RUNS_PER_ROUTE,
        endOnFailure: true,
        // Besides the random runs, always: the deep bodies, on the real job, from its poster and the admin.
        examples:
          route.method === 'GET'
            ? []
            : DEEP_BODIES.flatMap((body) =>
                (['poster', 'admin'] as const).map((who) => [route.params.map(() => job.id), { body, contentType: 'application/json' }, '', who] as [string[], RequestBody, string, typeof who]),
              ),
      },
    ).catch((error: unknown) => {
      // A 5xx is reported below, readably; anything else (a gateway that stopped answering) here.
      if (failures.length === 0) throw error;
    });
    expect(failures).toEqual([]);
  });
});
