import { describe, expect, it } from 'vitest';
import { parseGroups } from '../../functions/lib/http.js';
import { compileRoutes, flattenClaims } from '../../infra/local/http-gateway.js';
import { matchesPattern } from '../../infra/local/event-pattern.js';
import { EVENT_RULES, HTTP_ROUTE_GROUPS } from '../../functions/routes.js';

describe('local HTTP gateway', () => {
  it('compiles every declared route and prefers literal segments over parameters', () => {
    const routes = compileRoutes({
      jobs: { entry: 'x', capabilities: [], routes: { 'GET /jobs/{id}': 'user', 'GET /jobs/mine': 'user' } },
    });
    const match = routes.find((route) => route.method === 'GET' && route.pattern.test('/jobs/mine'));
    expect(match?.routeKey).toBe('GET /jobs/mine');
    const declared = Object.values(HTTP_ROUTE_GROUPS).flatMap((group) => Object.keys(group.routes));
    expect(compileRoutes().map((route) => route.routeKey).sort()).toEqual(declared.sort());
  });

  it('flattens claims the way API Gateway JWT authorizers do, and handlers read them back', () => {
    const claims = flattenClaims({ sub: 'u1', 'cognito:groups': ['admin', 'staff'], email_verified: true, auth_time: 1 });
    expect(claims).toEqual({ sub: 'u1', 'cognito:groups': '[admin staff]', email_verified: 'true', auth_time: '1' });
    expect(parseGroups(claims['cognito:groups'])).toEqual(['admin', 'staff']);
    expect(parseGroups(['admin'])).toEqual(['admin']);
    expect(parseGroups(undefined)).toEqual([]);
  });
});

describe('local EventBridge patterns', () => {
  const event = { source: 'oddjobs.jobs', 'detail-type': 'Job Posted', detail: { job: { category: 'Moving', tags: ['a', 'b'] } } };

  it('matches the declared rules as EventBridge would', () => {
    expect(matchesPattern(EVENT_RULES.jobFeed.pattern as never, event)).toBe(true);
    expect(matchesPattern(EVENT_RULES.jobFeed.pattern as never, { ...event, source: 'other' })).toBe(false);
  });

  it('supports nested fields, prefix, exists and anything-but', () => {
    expect(matchesPattern({ detail: { job: { category: ['Moving'] } } }, event)).toBe(true);
    expect(matchesPattern({ detail: { job: { category: [{ prefix: 'Mov' }] } } }, event)).toBe(true);
    expect(matchesPattern({ detail: { job: { missing: [{ exists: false }] } } }, event)).toBe(true);
    expect(matchesPattern({ detail: { job: { category: [{ exists: false }] } } }, event)).toBe(false);
    expect(matchesPattern({ detail: { job: { category: [{ 'anything-but': ['Moving'] }] } } }, event)).toBe(false);
    expect(matchesPattern({ detail: { job: { tags: ['b'] } } }, event)).toBe(true);
    expect(() => matchesPattern({ source: 'oddjobs.jobs' }, event)).toThrow(/must be arrays/);
  });
});
