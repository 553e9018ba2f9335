import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../shared/api.js';
import { JOB_CATEGORIES } from '../../shared/categories.js';
import { postOpenJob } from '../support/job-lifecycle.js';
import { createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';
import { DECLARED_ROUTES, bodyArbitrary, encodeBytes, fillPath, hostileString } from '../support/routes.js';

/** Requests per route: bounded so the whole file stays well under a minute. */
const RUNS_PER_ROUTE = 12;

describe('no user input ever gets a 500 (property-based, every declared route)', () => {
  const stack = useLocalStack();
  const callers: Record<string, TestUser | undefined> = { anonymous: undefined };
  let job: JobSummary;

  beforeAll(async () => {
    const [poster, worker] = await Promise.all([createPoster(stack()), createUser(stack(), { role: 'worker' })]);
    Object.assign(callers, { poster, worker });
    job = await postOpenJob(stack(), poster);
  }, 120_000);

  /** Path ids: real ones (so handlers get past the lookup), well-formed unknown ones, and hostile ones. */
  const idSegment = () =>
    fc.oneof(
      fc.constantFrom(job.id, callers.poster!.userId, callers.worker!.userId, randomUUID(), 'pi_doesnotexist').map(encodeURIComponent),
      hostileString.map(encodeBytes),
      fc.constantFrom('%', '%E0%A4%A', '%ED%A0%80', '%00', 'a'.repeat(4000), '..', '%2F..%2F'),
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
        route.method === 'GET' || route.method === 'DELETE' ? fc.constant(undefined) : bodyArbitrary(route.routeKey),
        queryString(),
        fc.constantFrom('anonymous', 'worker', 'poster'),
        async (ids, body, query, who) => {
          const path = fillPath(route.template, (param) => ids[route.params.indexOf(param)]!);
          const user = callers[who];
          const response = await fetch(`${stack().urls.api}${path}?${query}`, {
            method: route.method,
            headers: {
              ...(user ? { authorization: `Bearer ${user.idToken}` } : {}),
              'content-type': 'application/json',
              origin: 'javascript:alert(1)',
            },
            body,
          });
          if (response.status >= 500) failures.push(`${who} ${route.method} ${path.slice(0, 80)}?${query.slice(0, 80)} ${String(body).slice(0, 80)} -> ${response.status} ${await response.text()}`);
          return response.status < 500;
        },
      ),
      { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    ).catch((error: unknown) => {
      // A 5xx is reported below, readably; anything else (a gateway that stopped answering) here.
      if (failures.length === 0) throw error;
    });
    expect(failures).toEqual([]);
  });
});
