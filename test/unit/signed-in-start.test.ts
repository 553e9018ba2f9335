import { createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard, SavedJob } from '../../shared/api.js';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { appRoutes } from '../../web/src/app/router.js';
import { dashboardQueryOptions } from '../../web/src/features/dashboards/api/fetch-dashboard.js';
import { savedJobsQueryOptions } from '../../web/src/features/jobs/api/fetch-saved-jobs.js';
import { jobQueryOptions } from '../../web/src/features/jobs/api/fetch-job.js';
import { ownApplicationQueryOptions } from '../../web/src/features/applications/api/fetch-own-application.js';
import { dropEarlyReads, rememberConfig, startEarlyReads } from '../../web/src/lib/api/early-reads.js';
import { createQueryClient } from '../../web/src/lib/api/query-client.js';
import { loadRuntimeConfig } from '../../web/src/lib/config.js';
import { createAppApiClient } from '../../web/src/lib/api/useApi.js';
import { createApiClient } from '../../web/src/lib/api/client.js';
import * as session from '../../web/src/lib/auth/session.js';
import { restoreKeptSession } from '../../web/src/lib/auth/useAuth.js';

/**
 * The browser's localStorage, for Node, in place before anything is imported: Amplify picks its
 * token storage when its modules load (the router's imports load some of it).
 */
const storage = await vi.hoisted(async () => {
  const { MemoryStorage } = await import('../support/memory-storage.js');
  const memory = new MemoryStorage();
  Object.assign(globalThis, { window: { localStorage: memory } });
  return memory;
});
const COGNITO = 'http://cognito.test';
const API = 'http://api.test';
const CONFIG = { userPoolId: 'us-east-1_pool', userPoolClientId: 'client-1', userPoolEndpoint: COGNITO, apiUrl: API } as RuntimeConfig;
const USER_ID = '6b1e4c2a-0000-4000-8000-000000000001';

/** An unsigned JWT with these claims (neither Amplify nor the web app checks signatures: the API does). */
const jwt = (claims: Record<string, unknown>) => ['{"alg":"none"}', JSON.stringify(claims), ''].map((part) => Buffer.from(part).toString('base64url')).join('.');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Keeps a session where Amplify keeps it (its localStorage keys), with tokens expiring `expiresIn` seconds from now. */
function keepSession(expiresIn: number, idToken = jwt({ sub: USER_ID, exp: nowSeconds() + expiresIn, token_use: 'id' })): string {
  const prefix = `CognitoIdentityServiceProvider.${CONFIG.userPoolClientId}`;
  storage.setItem(`${prefix}.LastAuthUser`, USER_ID);
  storage.setItem(`${prefix}.${USER_ID}.idToken`, idToken);
  storage.setItem(`${prefix}.${USER_ID}.accessToken`, jwt({ sub: USER_ID, exp: nowSeconds() + expiresIn, iat: nowSeconds() - 3600, token_use: 'access' }));
  storage.setItem(`${prefix}.${USER_ID}.refreshToken`, 'refresh-token');
  storage.setItem(`${prefix}.${USER_ID}.clockDrift`, '0');
  return idToken;
}

interface Call {
  url: string;
  target: string | null;
  authorization: string | null;
}

/** The network: Cognito's token refresh and the API, each call recorded in order. */
function stubNetwork(api: (path: string) => unknown, refreshedIdToken?: string): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    calls.push({ url, target: headers.get('x-amz-target'), authorization: headers.get('authorization') });
    if (url.startsWith(COGNITO)) {
      const result = { AccessToken: jwt({ sub: USER_ID, exp: nowSeconds() + 3600, iat: nowSeconds(), token_use: 'access' }), IdToken: refreshedIdToken, ExpiresIn: 3600, TokenType: 'Bearer' };
      return new Response(JSON.stringify({ AuthenticationResult: result }), { headers: { 'content-type': 'application/x-amz-json-1.1' } });
    }
    return Response.json(api(new URL(url).pathname));
  });
  return calls;
}

describe('the first request of a kept session starts with the stored tokens (web/src/lib/auth/session.ts)', () => {
  beforeAll(() => session.configureAuth(CONFIG));
  beforeEach(() => storage.clear());
  afterEach(() => vi.unstubAllGlobals());

  // First in this file: Amplify has not loaded yet.
  it('carries the stored ID token while it is fresh, without loading Amplify or asking Cognito', async () => {
    const idToken = keepSession(3600);
    const calls = stubNetwork(() => ({ id: USER_ID }));
    const amplifyLoaded = vi.fn();
    const stopWaiting = session.whenAmplifyLoaded(amplifyLoaded);
    await createAppApiClient(API).get('/me');
    expect(calls).toEqual([{ url: `${API}/me`, target: null, authorization: `Bearer ${idToken}` }]);
    expect(await session.currentUserId()).toBe(USER_ID);
    expect(amplifyLoaded).not.toHaveBeenCalled();
    stopWaiting();
  });

  it('waits for Amplify to refresh tokens that expired, and carries the new ID token', async () => {
    const stale = keepSession(-60);
    const refreshed = jwt({ sub: USER_ID, exp: nowSeconds() + 3600, token_use: 'id', fresh: true });
    const calls = stubNetwork(() => ({ id: USER_ID }), refreshed);
    await createAppApiClient(API).get('/me');
    expect(calls.map((call) => call.target ?? call.url)).toEqual(['AWSCognitoIdentityProviderService.GetTokensFromRefreshToken', `${API}/me`]);
    expect(calls[1]!.authorization).toBe(`Bearer ${refreshed}`);
    expect(calls[1]!.authorization).not.toBe(`Bearer ${stale}`);
  });

  it('refreshes tokens due within five seconds, as Amplify would', async () => {
    keepSession(3);
    const refreshed = jwt({ sub: USER_ID, exp: nowSeconds() + 3600, token_use: 'id' });
    const calls = stubNetwork(() => ({ id: USER_ID }), refreshed);
    await createAppApiClient(API).get('/me');
    expect(calls.at(-1)!.authorization).toBe(`Bearer ${refreshed}`);
  });

  it("restores a kept session's profile from /me with the stored token, and remembers the user's role for the next visit's first reads", async () => {
    const idToken = keepSession(3600);
    const profile = { id: USER_ID, role: 'worker', name: 'Wendy' };
    const calls = stubNetwork((path) => (path === '/me' ? profile : { error: 'not found' }));
    expect(session.keptSessionRole()).toBeNull();
    const restored = await restoreKeptSession(createAppApiClient(API));
    expect(restored).toEqual({ state: { status: 'signedIn', userId: USER_ID, profile }, profileFailed: false });
    expect(calls).toEqual([{ url: `${API}/me`, target: null, authorization: `Bearer ${idToken}` }]);
    expect(session.keptSessionRole()).toBe('worker');
  });

  it('sends nothing when no session is kept', async () => {
    expect(restoreKeptSession(createAppApiClient(API))).toBeNull();
    const calls = stubNetwork(() => ({ items: [] }));
    await createAppApiClient(API).get('/jobs');
    expect(calls).toEqual([{ url: `${API}/jobs`, target: null, authorization: null }]);
  });
});

describe('a route fills the query cache when entered, before its screen renders (web/src/app/router.tsx)', () => {
  const dashboard = { jobs: [], totalEarnings: 4200, rating: null, reviewCount: 0, reviews: { items: [] } } as unknown as Dashboard;
  const savedJobs = [{ savedAt: '2026-11-26T07:00:00.000Z', job: { id: 'job-1' } }] as unknown as SavedJob[];

  beforeAll(() => session.configureAuth(CONFIG));
  beforeEach(() => storage.clear());
  afterEach(() => vi.unstubAllGlobals());

  const answers = (path: string) => (path === '/me/dashboard' ? dashboard : path === '/me/saved-jobs' ? { items: savedJobs } : { error: 'not found' });

  it("puts the worker dashboard's reads where the screen's hooks read them", async () => {
    const idToken = keepSession(3600);
    const calls = stubNetwork(answers);
    const queryClient = createQueryClient();
    const api = createAppApiClient(API);
    const router = createMemoryRouter(appRoutes(queryClient, api), { initialEntries: ['/worker-dashboard'] });
    // Nothing has rendered: the router alone started the reads.
    await vi.waitFor(() => expect(queryClient.getQueryData(dashboardQueryOptions(api).queryKey)).toEqual(dashboard));
    await vi.waitFor(() => expect(queryClient.getQueryData(savedJobsQueryOptions(api).queryKey)).toEqual(savedJobs));
    expect(calls.map((call) => [new URL(call.url).pathname, call.authorization]).sort()).toEqual([
      ['/me/dashboard', `Bearer ${idToken}`],
      ['/me/saved-jobs', `Bearer ${idToken}`],
    ]);
    router.dispose();
  });

  const JOB_ID = 'c96d65a3-50c1-474c-a3c5-6e85bfdc059e';
  const job = { id: JOB_ID, title: 'Replace a door lock' };
  const application = { jobId: JOB_ID, workerId: USER_ID, status: 'pending' };
  const jobAnswers = (path: string) => (path === `/jobs/${JOB_ID}` ? job : path === `/jobs/${JOB_ID}/applications/mine` ? application : { error: 'not found' });

  it("reads a worker's job page and their own application at once, the role remembered from the profile of an earlier sign-in", async () => {
    const idToken = keepSession(3600);
    session.rememberRole(USER_ID, 'worker');
    const calls = stubNetwork(jobAnswers);
    const queryClient = createQueryClient();
    const api = createAppApiClient(API);
    const router = createMemoryRouter(appRoutes(queryClient, api), { initialEntries: [`/jobs/${JOB_ID}`] });
    // Both before anything rendered, and neither waited for /me.
    await vi.waitFor(() => expect(queryClient.getQueryData(ownApplicationQueryOptions(api, JOB_ID).queryKey)).toEqual(application));
    expect(queryClient.getQueryData(jobQueryOptions(api, JOB_ID).queryKey)).toEqual(job);
    expect(calls.map((call) => [new URL(call.url).pathname, call.authorization]).sort()).toEqual([
      [`/jobs/${JOB_ID}`, `Bearer ${idToken}`],
      [`/jobs/${JOB_ID}/applications/mine`, `Bearer ${idToken}`],
    ]);
    router.dispose();
  });

  it("reads only the job for a poster, or while the role is not known", async () => {
    for (const role of ['poster', null] as const) {
      storage.clear();
      keepSession(3600);
      if (role) session.rememberRole(USER_ID, role);
      // Another user's remembered role is not this session's.
      session.rememberRole('6b1e4c2a-0000-4000-8000-000000000002', 'worker');
      const calls = stubNetwork(jobAnswers);
      const queryClient = createQueryClient();
      const api = createAppApiClient(API);
      const router = createMemoryRouter(appRoutes(queryClient, api), { initialEntries: [`/jobs/${JOB_ID}`] });
      await vi.waitFor(() => expect(queryClient.getQueryData(jobQueryOptions(api, JOB_ID).queryKey)).toEqual(job));
      expect(calls.map((call) => new URL(call.url).pathname)).toEqual([`/jobs/${JOB_ID}`]);
      router.dispose();
      vi.unstubAllGlobals();
    }
  });

  it('reads nothing for a visitor, who is sent elsewhere', async () => {
    const calls = stubNetwork(answers);
    const queryClient = createQueryClient();
    const router = createMemoryRouter(appRoutes(queryClient, createAppApiClient(API)), { initialEntries: ['/poster-dashboard'] });
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(calls).toEqual([]);
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    router.dispose();
  });
});

describe('the early entry starts the first reads while the app downloads, and the app adopts each once (web/src/lib/api/early-reads.ts)', () => {
  const SERVED_CONFIG = {
    ...CONFIG,
    mode: 'local',
    region: 'us-east-1',
    webSocketUrl: 'ws://live.test',
    authFlowType: 'USER_PASSWORD_AUTH',
    stripe: { publishableKey: 'pk_test_local' },
  } satisfies RuntimeConfig;
  const JOB_ID = 'c96d65a3-50c1-474c-a3c5-6e85bfdc059e';
  const profile = { id: USER_ID, role: 'worker', name: 'Wendy' };
  const job = { id: JOB_ID, title: 'Replace a door lock' };
  const application = { jobId: JOB_ID, workerId: USER_ID, status: 'pending' };
  const answers: Record<string, unknown> = {
    '/me': profile,
    [`/jobs/${JOB_ID}`]: job,
    [`/jobs/${JOB_ID}/applications/mine`]: application,
    '/me/dashboard': { jobs: [] },
    '/me/saved-jobs': { items: [] },
  };

  /** The site's /config.json and the API, each call recorded in order as [url, authorization]. */
  function stubSiteAndApi(): Array<[string, string | null]> {
    const calls: Array<[string, string | null]> = [];
    vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push([url, new Headers(init?.headers).get('authorization')]);
      if (url === '/config.json') return Response.json(SERVED_CONFIG);
      const path = new URL(url).pathname;
      return path in answers ? Response.json(answers[path]) : Response.json({ error: 'not found' }, { status: 404 });
    });
    return calls;
  }

  beforeEach(() => storage.clear());
  afterEach(() => {
    dropEarlyReads();
    vi.unstubAllGlobals();
  });

  it("sends a worker's job page reads with /config.json, and the app's start (its profile, the route's loader) adopts them instead of sending them again", async () => {
    const idToken = keepSession(3600);
    session.rememberRole(USER_ID, 'worker');
    rememberConfig(SERVED_CONFIG); // by the last visit's start
    const calls = stubSiteAndApi();
    startEarlyReads(`/jobs/${JOB_ID}`);
    // At once, not after /config.json's answer.
    expect(calls.map(([url]) => url)).toEqual(['/config.json', `${API}/me`, `${API}/jobs/${JOB_ID}`, `${API}/jobs/${JOB_ID}/applications/mine`]);
    // As main.tsx starts: the configuration first, then the app.
    const config = await loadRuntimeConfig();
    expect(config).toEqual(SERVED_CONFIG);
    const bearer = `Bearer ${idToken}`;
    const early: Array<[string, string | null]> = [
      ['/config.json', null],
      [`${API}/me`, bearer],
      [`${API}/jobs/${JOB_ID}`, bearer],
      [`${API}/jobs/${JOB_ID}/applications/mine`, bearer],
    ];
    expect(calls).toEqual(early);

    session.configureAuth(config);
    const queryClient = createQueryClient();
    const api = createAppApiClient(config.apiUrl);
    const router = createMemoryRouter(appRoutes(queryClient, api), { initialEntries: [`/jobs/${JOB_ID}`] });
    expect(await restoreKeptSession(api)).toEqual({ state: { status: 'signedIn', userId: USER_ID, profile }, profileFailed: false });
    await vi.waitFor(() => expect(queryClient.getQueryData(ownApplicationQueryOptions(api, JOB_ID).queryKey)).toEqual(application));
    expect(queryClient.getQueryData(jobQueryOptions(api, JOB_ID).queryKey)).toEqual(job);
    expect(calls).toEqual(early);

    // Once: a later read is sent.
    await api.get(`/jobs/${JOB_ID}`);
    expect(calls).toEqual([...early, [`${API}/jobs/${JOB_ID}`, bearer]]);
    router.dispose();
  });

  it("sends each dashboard's first reads, and a poster's or an unknown role's job page only the job", async () => {
    keepSession(3600);
    rememberConfig(SERVED_CONFIG);
    const pages = [
      ['/worker-dashboard', 'worker', ['/me', '/me/dashboard', '/me/saved-jobs']],
      ['/poster-dashboard', 'poster', ['/me', '/me/dashboard']],
      [`/jobs/${JOB_ID}`, 'poster', ['/me', `/jobs/${JOB_ID}`]],
      [`/jobs/${JOB_ID}`, null, ['/me', `/jobs/${JOB_ID}`]],
      ['/profile', 'worker', ['/me']],
    ] as const;
    for (const [pathname, role, reads] of pages) {
      storage.removeItem(`oddjobs.role.${USER_ID}`);
      if (role) session.rememberRole(USER_ID, role);
      const calls = stubSiteAndApi();
      startEarlyReads(pathname);
      await loadRuntimeConfig();
      expect(calls.map(([url]) => url)).toEqual(['/config.json', ...reads.map((path) => `${API}${path}`)]);
      dropEarlyReads();
      vi.unstubAllGlobals();
    }
  });

  it("reads only /config.json on a first visit, when no session is kept or its tokens are due for a refresh, and hands no early answer to another token", async () => {
    for (const [expiresIn, visitedBefore] of [[3600, false], [null, true], [-60, true], [3, true]] as const) {
      storage.clear();
      if (visitedBefore) rememberConfig(SERVED_CONFIG);
      if (expiresIn !== null) keepSession(expiresIn);
      const calls = stubSiteAndApi();
      startEarlyReads('/worker-dashboard');
      await loadRuntimeConfig();
      expect(calls).toEqual([['/config.json', null]]);
      vi.unstubAllGlobals();
    }

    // A first visit's start remembers the configuration: the next visit reads early.
    storage.clear();
    keepSession(3600);
    const firstVisit = stubSiteAndApi();
    startEarlyReads('/profile');
    await loadRuntimeConfig();
    startEarlyReads('/profile');
    await loadRuntimeConfig();
    expect(firstVisit.map(([url]) => url)).toEqual(['/config.json', '/config.json', `${API}/me`]);
    dropEarlyReads();
    vi.unstubAllGlobals();

    storage.clear();
    rememberConfig(SERVED_CONFIG);
    keepSession(3600);
    const calls = stubSiteAndApi();
    startEarlyReads('/poster-dashboard');
    await loadRuntimeConfig();
    expect(calls).toHaveLength(3);
    // Another user signed in meanwhile: their read is their own.
    const other = jwt({ sub: 'someone-else', exp: nowSeconds() + 3600, token_use: 'id' });
    await createApiClient(API, async () => other).get('/me/dashboard');
    expect(calls.at(-1)).toEqual([`${API}/me/dashboard`, `Bearer ${other}`]);
  });
});
