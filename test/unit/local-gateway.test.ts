import { afterEach, describe, expect, it } from 'vitest';
import { parseGroups } from '../../functions/lib/http.js';
import { API_GATEWAY_HTTP_LIMITS, compileRoutes, flattenClaims, serveHttpGateway, type HttpApiLimits } from '../../infra/local/http-gateway.js';
import { matchesPattern } from '../../infra/local/event-pattern.js';
import { createServer } from 'node:http';
import { listen, type Listening } from '../../infra/local/http-util.js';
import { serveApiOnSite, serveRuntimeConfig } from '../../infra/local/web-preview.js';
import { API_PATH } from '../../infra/constructs/site-request.js';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { API_GATEWAY_CONNECTION_LIMITS } from '../../infra/local/ws-gateway.js';
import { apiThrottles } from '../../functions/api-throttles.js';
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

describe('local HTTP gateway limits (API Gateway HTTP API quotas)', () => {
  const fixture = {
    entry: 'test/support/fixtures/gateway-handler.ts',
    capabilities: [],
    routes: { 'POST /echo': 'public', 'GET /never': 'public' },
  } as const;
  let gateway: Listening | undefined;
  afterEach(() => gateway?.close());
  const serve = async (limits: Partial<HttpApiLimits> = {}) => {
    // Public routes only: no token is ever verified.
    const verifier = { verify: () => Promise.reject(new Error('no tokens in these tests')) };
    gateway = await serveHttpGateway({ port: 0, limits, routeGroups: { fixture }, verifier });
    return gateway.url;
  };
  const MB = 1024 * 1024;

  it('enforces the stage throttle the CDK app declares, and API Gateway\'s other quotas, by default', () => {
    const declared = apiThrottles();
    expect(API_GATEWAY_HTTP_LIMITS).toEqual({ maxPayloadBytes: 10 * MB, integrationTimeoutMs: 30_000, throttle: declared.http });
    expect(API_GATEWAY_CONNECTION_LIMITS.throttle).toEqual(declared.webSocket);
  });

  it('refuses a body over 10 MB with 413, as API Gateway does, and passes one of 10 MB', async () => {
    const url = await serve();
    const post = (bytes: number) => fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
    const atLimit = await post(10 * MB);
    expect({ status: atLimit.status, body: await atLimit.text() }).toEqual({ status: 200, body: String(10 * MB) });
    const over = await post(10 * MB + 1);
    expect({ status: over.status, body: await over.json() }).toEqual({ status: 413, body: { message: 'Request Entity Too Large' } });
  });

  it('answers 503 when the function does not answer within the integration timeout', async () => {
    const url = await serve({ integrationTimeoutMs: 50 });
    const response = await fetch(`${url}/never`);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 503, body: { message: 'Service Unavailable' } });
  });

  it('throttles a route beyond its burst with 429 {"message":"Too Many Requests"}, each route with a bucket of its own', async () => {
    // Buckets that refill too slowly to matter during the test: the burst is all there is.
    const url = await serve({ throttle: { default: { burstLimit: 3, rateLimit: 0.001 }, routes: { 'GET /never': { burstLimit: 1, rateLimit: 0.001 } } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/echo`, { method: 'POST', body: 'x' })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const throttled = await fetch(`${url}/echo`, { method: 'POST', body: 'x' });
    expect({ status: throttled.status, body: await throttled.json() }).toEqual({ status: 429, body: { message: 'Too Many Requests' } });
    // Another route still has its token (its own throttle: one), taken by a request that then times out.
    const never = () => fetch(`${url}/never`, { signal: AbortSignal.timeout(300) }).then((answer) => answer.status, () => 'still waiting');
    expect(await never()).toBe('still waiting');
    expect(await never()).toBe(429);
  });

  it('answers no CORS preflight and sends no CORS header, as the HTTP API, which has no CORS: a page of another origin cannot call it', async () => {
    const url = await serve();
    const preflight = await fetch(`${url}/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(`${url}/echo`, { method: 'POST', headers: { origin: 'https://elsewhere.example' }, body: 'x' });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("is served on the site's origin under API_PATH, as the distribution serves it: prefix off, body, query and answers passed through", async () => {
    const apiUrl = await serve();
    const config = serveRuntimeConfig({ apiUrl } as RuntimeConfig);
    const apiOnSite = serveApiOnSite(apiUrl);
    const site = await listen(
      createServer((req, res) => {
        if (req.url === '/config.json') return config(req, res);
        apiOnSite(req, res, () => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('the page');
        });
      }),
      0,
    );
    try {
      // The page is told to call the API on its own origin.
      expect(((await (await fetch(`${site.url}/config.json`)).json()) as RuntimeConfig).apiUrl).toBe(`${site.url}${API_PATH}`);
      const echoed = await fetch(`${site.url}${API_PATH}/echo?x=1`, { method: 'POST', body: 'hello' });
      expect({ status: echoed.status, body: await echoed.text() }).toEqual({ status: 200, body: '5' });
      // The API's own 404 stays the API's (in AWS, the reason the distribution has no error responses).
      const missing = await fetch(`${site.url}${API_PATH}/nowhere`);
      expect({ status: missing.status, body: await missing.json() }).toEqual({ status: 404, body: { message: 'Not Found' } });
      // Anything else is the site's.
      expect(await (await fetch(`${site.url}/jobs/1`)).text()).toBe('the page');
    } finally {
      await site.close();
    }
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

  it('supports $or: one of its patterns of the same object must match', () => {
    const either = { detail: { $or: [{ job: { category: ['Cleaning'] } }, { job: { tags: ['b'] } }] } };
    expect(matchesPattern(either, event)).toBe(true);
    expect(matchesPattern({ detail: { $or: [{ job: { category: ['Cleaning'] } }, { job: { tags: ['c'] } }] } }, event)).toBe(false);
    expect(() => matchesPattern({ detail: { $or: [{ job: { tags: ['b'] } }] } }, event)).toThrow(/at least two/);
  });

  it("runs a filtered job rule for the changes it acts on, and for an event written before every job event named its change", () => {
    const jobEvent = (change?: string) => ({ ...event, 'detail-type': 'Job Updated', detail: { job: { id: 'j1' }, ...(change ? { change } : {}) } });
    const runs = (rule: keyof typeof EVENT_RULES, change?: string) => matchesPattern(EVENT_RULES[rule].pattern as never, jobEvent(change));
    expect([runs('geocoding', 'edited'), runs('geocoding', 'assigned'), runs('geocoding')]).toEqual([true, false, true]);
    expect([runs('searchIndex', 'assigned'), runs('searchIndex', 'paid'), runs('searchIndex', 'applications'), runs('searchIndex')]).toEqual([true, false, false, true]);
    expect([runs('marketStats', 'paid'), runs('marketStats', 'applications'), runs('marketStats')]).toEqual([true, false, true]);
  });
});
