import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { JobSummary } from '../../shared/api.js';
import { conversationId } from '../../shared/chat.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { notificationItem } from '../../functions/notifications/notifications.js';
import { createReadyUser, jobForm, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';
import { DECLARED_ROUTES, fillPath, type DeclaredRoute } from '../support/routes.js';
import { UNTHROTTLED } from '../../infra/local/stage-throttle.js';

/**
 * Who calls, as seen from one job: its poster; the worker who applied to it and asked about
 * it while it was open (the assigned worker once it is assigned, completed or paid; the former
 * one once cancelled); a worker with no part in it; a poster of other jobs; the admin; and
 * nobody signed in.
 */
type Party = 'anonymous' | 'stranger' | 'otherPoster' | 'worker' | 'poster' | 'admin';
const PARTIES: readonly Party[] = ['anonymous', 'stranger', 'otherPoster', 'worker', 'poster', 'admin'];

/** The job statuses a job-scoped route is tried on (drafts are their poster's alone, and covered by 404s). */
type Status = 'open' | 'assigned' | 'completed' | 'paid' | 'cancelled';
const STATUSES: readonly Status[] = ['open', 'assigned', 'completed', 'paid', 'cancelled'];

/**
 * Who may get a 2xx from a route: the same parties on every call (a route about the caller's
 * own or shared data, tried once), or, for a route about one job, the parties per status of
 * that job (a status not named: nobody). Everyone else must be refused; those named must never
 * get a 5xx (they may still get a 4xx, e.g. applying twice). Every declared route must be here:
 * a new route fails this test until someone says who may use it, on which status.
 */
type Rule = readonly Party[] | Readonly<Partial<Record<Status, readonly Party[]>>>;

const SIGNED_IN: readonly Party[] = ['stranger', 'otherPoster', 'worker', 'poster', 'admin'];
const EVERYONE: readonly Party[] = ['anonymous', ...SIGNED_IN];
const PARTIES_OF_JOB: readonly Party[] = ['poster', 'worker'];
const onEvery = (parties: readonly Party[]) => Object.fromEntries(STATUSES.map((status) => [status, parties])) as Record<Status, readonly Party[]>;
/** A dispute's thread: its two parties and the admin, on the jobs that have one (see beforeAll). */
const DISPUTE_THREAD = { ...onEvery([...PARTIES_OF_JOB, 'admin']), open: [] };

const MAY: Readonly<Record<string, Rule>> = {
  'GET /accounts/admin-status': EVERYONE,
  'GET /me': SIGNED_IN,
  'PATCH /me': SIGNED_IN,
  // Own data only: the route takes no id, the caller's token says whose data.
  'GET /me/export': SIGNED_IN,
  // Own account only (the token says whose); tried with a wrong password, so nobody's account goes.
  'POST /me/deletion': SIGNED_IN,
  'GET /profiles/{id}': SIGNED_IN,
  'POST /uploads/images': SIGNED_IN,
  'GET /jobs': EVERYONE,
  'GET /feed/jobs': SIGNED_IN,
  // Any signed-in user reads a job's page whatever its status (only its worker sees the street).
  'GET /jobs/{id}': onEvery(SIGNED_IN),
  // Only posters post (spec 1 §6).
  'POST /jobs': ['poster', 'otherPoster'],
  'PUT /jobs/{id}': { open: ['poster'] },
  // The poster cancels an assigned job; the admin an open or assigned one (spec 2 §5).
  // The admin's cancel decides held money (a refund), completed jobs' too; the poster's only while assigned (issue 34).
  'POST /jobs/{id}/cancel': { open: ['admin'], assigned: ['poster', 'admin'], completed: ['admin'] },
  'POST /jobs/{id}/unassign': { assigned: ['poster'] },
  // A completed job's held money must be decided first: the admin's delete refunds it, the poster's is refused (issue 34).
  'DELETE /jobs/{id}': { open: ['poster', 'admin'], assigned: ['admin'], completed: ['admin'], paid: ['poster', 'admin'], cancelled: ['poster', 'admin'] },
  'GET /me/jobs': SIGNED_IN,
  'POST /payments/account': SIGNED_IN,
  'POST /payments/account/status': SIGNED_IN,
  // The job's own payment, confirmed again: idempotent for its poster.
  'POST /payments/confirm': onEvery(['poster']),
  // A draft's card step again, for its poster alone: on a paid job's status, nobody (a 409 or 404).
  'GET /jobs/{id}/payment': {},
  // A paid job's release answers as done (exactly once, whoever asks again).
  'POST /jobs/{id}/release-payment': { completed: ['poster', 'admin'], paid: ['poster', 'admin'] },
  // A tip: the poster of a paid job, within 7 days of its release (docs/decisions/0142-tips-who-when-how-much.md).
  'POST /jobs/{id}/tip': { paid: ['poster'] },
  'GET /me/earnings': SIGNED_IN,
  // Instant payouts: a worker with a connected account, of their own balance (the unconnected stranger gets a 409).
  'GET /me/payouts/instant': ['worker'],
  'POST /me/payouts/instant': ['worker'],
  'GET /admin/payments': ['admin'],
  'GET /admin/payments/overview': ['admin'],
  'GET /admin/payments/overview/series': ['admin'],
  'POST /admin/payments/{id}/refund': onEvery(['admin']),
  // A reversal's preview: the admin's (only a payment released to its worker has one; others are a 409).
  'GET /admin/payments/{id}/reversal': onEvery(['admin']),
  // The money decisions waiting for Stripe (issue 43); a retry of one that is not there is a 404 for the admin too.
  'GET /admin/money/decisions': ['admin'],
  'POST /admin/money/decisions/{id}/retry': ['admin'],
  // Signed by Stripe, not by a user: anyone may deliver, the signature decides.
  'POST /webhooks/stripe': EVERYONE,
  'POST /webhooks/stripe/connect': EVERYONE,
  'GET /me/saved-jobs': SIGNED_IN,
  // Saved searches (issue 46): the workers keep them; the body brings the place. Removing one that is nobody's is a 404 for everyone.
  'GET /me/saved-searches': SIGNED_IN,
  'POST /me/saved-searches': ['stranger', 'worker'],
  'DELETE /me/saved-searches/{id}': [],
  'PUT /me/saved-jobs/{jobId}': onEvery(SIGNED_IN),
  'DELETE /me/saved-jobs/{jobId}': onEvery(SIGNED_IN),
  'GET /me/notifications': SIGNED_IN,
  'POST /jobs/{id}/applications': { open: ['stranger', 'worker'] },
  'GET /jobs/{id}/applications': onEvery(['poster']),
  'GET /jobs/{id}/applications/mine': onEvery(SIGNED_IN),
  // Offers' own steps (issue 45): on this fixed-price job there is no offer, so nobody (test/integration/offers.test.ts has who, on a job open to offers).
  'PUT /jobs/{id}/applications/mine': {},
  'DELETE /jobs/{id}/applications/mine': {},
  'POST /jobs/{id}/applications/mine/counter': {},
  'POST /jobs/{id}/applications/{workerId}/counter': {},
  // Public questions (issue 45): every signed-in reader of the job's page; any worker asks while it is open (the applicant and one with no part);
  // this job has no question to answer (test/integration/questions.test.ts answers).
  'GET /jobs/{id}/questions': onEvery(SIGNED_IN),
  'POST /jobs/{id}/questions': { open: ['stranger', 'worker'] },
  'POST /jobs/{id}/questions/{questionId}/answer': {},
  // Price changes (issue 45): the assigned worker asks or withdraws, the poster answers, while assigned; the history is the
  // parties' and the admin's (a cancel clears the worker). Who wins each step is test/integration/price-changes.test.ts's.
  'POST /jobs/{id}/price-change': { assigned: ['worker'] },
  'DELETE /jobs/{id}/price-change': { assigned: ['worker'] },
  'POST /jobs/{id}/price-change/approve': { assigned: ['poster'] },
  'POST /jobs/{id}/price-change/decline': { assigned: ['poster'] },
  'GET /jobs/{id}/price-changes': { open: ['poster', 'admin'], assigned: [...PARTIES_OF_JOB, 'admin'], completed: [...PARTIES_OF_JOB, 'admin'], paid: [...PARTIES_OF_JOB, 'admin'], cancelled: ['poster', 'admin'] },
  'POST /jobs/{id}/applications/{workerId}/accept': { open: ['poster'] },
  'POST /jobs/{id}/applications/{workerId}/reject': { open: ['poster'] },
  'POST /jobs/{id}/complete': { assigned: ['worker'] },
  'POST /jobs/{id}/decline-completion': { completed: ['poster'] },
  'POST /jobs/{id}/auto-release/pause': { completed: ['poster'] },
  'POST /jobs/{id}/auto-release/resume': { completed: ['poster'] },
  'GET /me/applications': SIGNED_IN,
  // Reviews once paid, by its two parties (spec 2 §6); the admin may edit one.
  'POST /jobs/{id}/reviews': { paid: PARTIES_OF_JOB },
  'PUT /jobs/{id}/reviews/{reviewerId}': onEvery(['admin']),
  'GET /profiles/{id}/reviews': SIGNED_IN,
  'GET /jobs/{id}/reviews': onEvery(SIGNED_IN),
  'GET /me/notifications/unread-count': SIGNED_IN,
  // The poster's notification: anyone else is answered 404.
  'POST /me/notifications/{id}/read': ['poster'],
  'POST /me/notifications/read-all': SIGNED_IN,
  'PUT /me/location': SIGNED_IN,
  'PUT /me/notification-preferences': SIGNED_IN,
  // The Dispute Center: the poster always; the worker once assigned (a former one too).
  'GET /jobs/{id}/dispute': { open: ['poster'], assigned: PARTIES_OF_JOB, completed: PARTIES_OF_JOB, paid: PARTIES_OF_JOB, cancelled: PARTIES_OF_JOB },
  // Filing (DISPUTABLE in shared/disputes.ts): the poster from assigned to paid, the worker while assigned or completed, a former worker after.
  'POST /jobs/{id}/dispute': { assigned: PARTIES_OF_JOB, completed: PARTIES_OF_JOB, paid: ['poster'], cancelled: PARTIES_OF_JOB },
  'GET /me/disputes': SIGNED_IN,
  'GET /disputes/{id}/messages': DISPUTE_THREAD,
  'POST /disputes/{id}/messages': DISPUTE_THREAD,
  'GET /admin/disputes': ['admin'],
  'PUT /admin/disputes/{id}/priority': onEvery(['admin']),
  'POST /admin/disputes/{id}/resolve': onEvery(['admin']),
  'POST /admin/disputes/bulk-resolve': ['admin'],
  'GET /admin/dispute-templates': ['admin'],
  // The caller's own dashboard (the admin, who has a console, is refused).
  'GET /me/dashboard': SIGNED_IN,
  // Anyone signed in may report a job but its poster (DECISIONS.md wave 2).
  'POST /jobs/{id}/flags': onEvery(['stranger', 'otherPoster', 'worker', 'admin']),
  'GET /admin/jobs': ['admin'],
  'GET /admin/jobs/{id}/ledger': ['admin'],
  'GET /admin/flags': ['admin'],
  'POST /admin/flags/{jobId}/review': onEvery(['admin']),
  'GET /admin/markets': ['admin'],
  'GET /admin/actions': ['admin'],
  'GET /admin/categories': ['admin'],
  'PUT /admin/categories': ['admin'],
  // The admin's users (issue 27): the user tried is the stranger, whose suspension touches no job here.
  'GET /admin/users': ['admin'],
  'GET /admin/users/{id}': ['admin'],
  'POST /admin/users/{id}/suspend': ['admin'],
  'POST /admin/users/{id}/reinstate': ['admin'],
  'POST /admin/users/{id}/password-reset': ['admin'],
  // Tried on the stranger, who is not verified: the admin's call is refused as a conflict, nobody else's is heard.
  'POST /admin/users/{id}/identity-revocation': ['admin'],
  // Own identity check only (the token says whose): starts a session at Stripe, changes no job.
  'POST /me/identity-check': SIGNED_IN,
  // The post-job form's list of categories closed to new jobs (issue 27).
  'GET /categories/hidden': SIGNED_IN,
  // The landing page's cards: a visitor's too.
  'GET /categories/earnings': EVERYONE,
  'GET /conversations': SIGNED_IN,
  // Any worker asks on an open job; after that only its worker and poster talk (issue 23). The
  // worker's conversation from when it was open is reopened on every status (200), to read.
  'POST /conversations': { ...onEvery(PARTIES_OF_JOB), open: ['stranger', ...PARTIES_OF_JOB] },
  'GET /conversations/{id}': onEvery(PARTIES_OF_JOB),
  'GET /conversations/{id}/messages': onEvery(PARTIES_OF_JOB),
  // Open: both parties write; assigned or completed: only the assigned worker's conversation
  // (this one; issue 23); paid (spec 2 §7) or cancelled: read-only.
  'POST /conversations/{id}/messages': { ...onEvery(PARTIES_OF_JOB), paid: [], cancelled: [] },
  'POST /conversations/{id}/read': onEvery(PARTIES_OF_JOB),
  'PUT /conversations/{id}/block': onEvery(['poster']),
  'DELETE /conversations/{id}/block': onEvery(['poster']),
  'GET /me/unread-messages': SIGNED_IN,
  // An email's one-click unsubscribe: the signed token in the link decides, not the caller.
  'POST /unsubscribe': EVERYONE,
  // The VAPID public key is public (a browser subscribes with it); subscriptions are the caller's own.
  'GET /push/public-key': EVERYONE,
  'PUT /me/push-subscriptions': SIGNED_IN,
  'DELETE /me/push-subscriptions': SIGNED_IN,
};

const isPerStatus = (rule: Rule): rule is Readonly<Partial<Record<Status, readonly Party[]>>> => !Array.isArray(rule);

/** Who may call a route on a job in a status (a route not about a job: the same on any). */
const mayCall = (routeKey: string, status: Status): readonly Party[] => {
  const rule = MAY[routeKey]!;
  return isPerStatus(rule) ? (rule[status] ?? []) : rule;
};

/** A job in one status, with everything its routes point at. */
interface JobUnderTest {
  status: Status;
  job: JobSummary;
  users: Record<Exclude<Party, 'anonymous'>, TestUser>;
  paymentIntentId: string;
  notificationId: string;
  /** The dispute filed on the job, if its status allows one. */
  disputeId?: string;
}

describe('authorisation: every declared route x every party x every job status', () => {
  // 1,320 calls as fast as the stack answers: the stage throttle (tested on its own) would answer some 429.
  // Unlimited client budgets too: a few users make every route's calls within a minute.
  const stack = useLocalStack({ httpLimits: { throttle: UNTHROTTLED }, clientBudgetPerMinute: Infinity });
  const jobs = {} as Record<Status, JobUnderTest>;

  const call = <T = unknown>(user: TestUser, method: string, path: string, body?: unknown) => api<T>(stack(), method, path, { token: user.idToken, body });
  const expectStatus = async (promise: Promise<{ status: number; body: unknown }>, status: number) => {
    const response = await promise;
    expect(response, JSON.stringify(response.body)).toMatchObject({ status });
    return response;
  };

  /**
   * Each job is taken to its status through the API, as users do: posted and paid, applied to
   * and asked about by the worker while open, accepted, completed, released or cancelled, a
   * dispute filed. Three posters, since posting is limited to 3 payments a minute each.
   */
  beforeAll(async () => {
    const [posters, worker, stranger, admin] = await Promise.all([
      Promise.all([createPoster(stack()), createPoster(stack()), createPoster(stack())]),
      createReadyUser(stack(), 'worker'),
      createUser(stack(), { role: 'worker' }),
      createUser(stack(), { role: 'admin' }),
    ]);
    const ownerIndex: Record<Status, number> = { open: 0, assigned: 0, completed: 1, paid: 1, cancelled: 2 };
    await Promise.all(
      STATUSES.map(async (status) => {
        const poster = posters[ownerIndex[status]]!;
        const users = { poster, otherPoster: posters[(ownerIndex[status] + 1) % 3]!, worker, stranger, admin };
        const job = await postOpenJob(stack(), poster, { title: `A job ${status}` });
        await expectStatus(call(worker, 'POST', `/jobs/${job.id}/applications`, { message: 'I can do it' }), 201);
        await expectStatus(call(worker, 'POST', '/conversations', { jobId: job.id }), 201);
        if (status !== 'open') await expectStatus(call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`), 200);
        if (status === 'completed' || status === 'paid') await expectStatus(call(worker, 'POST', `/jobs/${job.id}/complete`), 200);
        if (status === 'paid') await expectStatus(call(poster, 'POST', `/jobs/${job.id}/release-payment`), 200);
        if (status === 'cancelled') await expectStatus(call(poster, 'POST', `/jobs/${job.id}/cancel`), 200);
        const reporter = status === 'paid' ? poster : worker;
        const dispute =
          status === 'open' ? undefined : await expectStatus(call<{ id: string }>(reporter, 'POST', `/jobs/${job.id}/dispute`, { type: 'quality', description: 'Not as agreed' }), 201);
        const notification = notificationItem({ userId: poster.userId, jobId: job.id, type: 'job_completed', title: 'Done', message: 'Done' });
        await tableClient(stack()).send(new PutCommand({ TableName: stack().tableName, Item: notification }));
        jobs[status] = { status, job, users, paymentIntentId: '', notificationId: notification.id, disputeId: (dispute?.body as { id: string } | undefined)?.id };
      }),
    );
    const payments = await call<{ items: { jobId: string; stripePaymentIntentId: string }[] }>(admin, 'GET', '/admin/payments');
    for (const status of STATUSES) {
      jobs[status].paymentIntentId = payments.body.items.find((payment) => payment.jobId === jobs[status].job.id)!.stripePaymentIntentId;
    }
  }, 180_000);

  /** The path values that point at the job's resources. */
  function pathOf(route: DeclaredRoute, { job, users, paymentIntentId, notificationId, disputeId }: JobUnderTest): string {
    const segments = route.template.split('/');
    return fillPath(route.template, (param) => {
      const owner = param === 'id' ? segments[segments.indexOf(`{${param}}`) - 1] : param;
      const value = {
        jobs: job.id,
        jobId: job.id,
        profiles: users.poster.userId,
        payments: paymentIntentId,
        workerId: users.worker.userId,
        reviewerId: users.poster.userId,
        notifications: notificationId,
        // A job without a dispute: an id that names none.
        disputes: disputeId ?? randomUUID(),
        conversations: conversationId(job.id, users.worker.userId),
        users: users.stranger.userId,
        // A decision that does not exist: the admin's retry of it is a 404, anyone else's a 403.
        decisions: `release.${randomUUID()}.authz`,
        // A question that does not exist: answering it is a 404 for its poster too.
        questionId: randomUUID(),
        'saved-searches': randomUUID(),
      }[owner!];
      if (!value) throw new Error(`${route.routeKey}: no test value for {${param}}`);
      return value;
    });
  }

  /** A body that would succeed for the right caller, so a refusal is the server's decision, not the body's. */
  const BODIES: Readonly<Record<string, unknown>> = {
    'PATCH /me': { bio: 'Hello' },
    'POST /me/deletion': { password: 'not-the-password' },
    'POST /uploads/images': { purpose: 'job', fileName: 'a.png', contentType: 'image/png', size: 100 },
    'POST /jobs': jobForm,
    'PUT /jobs/{id}': { ...jobForm, title: 'Taken over' },
    // The admin gives a reason; the poster's is ignored.
    'POST /jobs/{id}/cancel': { reason: 'Reported as a scam' },
    'DELETE /jobs/{id}': { reason: 'Reported as a scam' },
    'POST /admin/payments/{id}/refund': { reason: 'Duplicate listing' },
    'POST /jobs/{id}/release-payment': { reason: 'The poster stopped answering' },
    'POST /jobs/{id}/tip': { amount: 500 },
    'POST /me/payouts/instant': { amount: 100, idempotencyKey: 'authz-cash-out-1' },
    'POST /jobs/{id}/applications': { message: 'I can do it' },
    'POST /jobs/{id}/questions': { text: 'Is there parking?' },
    'POST /jobs/{id}/questions/{questionId}/answer': { answer: 'Yes, in the drive.' },
    'POST /jobs/{id}/price-change': { amount: 500, reason: 'Smaller than described' },
    'POST /jobs/{id}/price-change/approve': { amount: 500 },
    'POST /jobs/{id}/decline-completion': { reason: 'Not done' },
    'POST /jobs/{id}/auto-release/pause': { reason: 'Checking the work' },
    'POST /jobs/{id}/reviews': { rating: 5 },
    'PUT /jobs/{id}/reviews/{reviewerId}': { rating: 1 },
    'PUT /me/location': { zip: '78701', timeZone: 'America/Chicago' },
    'POST /me/saved-searches': { text: 'gutters', radiusMiles: 10, latitude: 30.27, longitude: -97.74 },
    'PUT /me/notification-preferences': DEFAULT_NOTIFICATION_PREFERENCES,
    'POST /jobs/{id}/dispute': { type: 'quality', description: 'Not done' },
    'POST /jobs/{id}/flags': { flagType: 'spam', reason: 'Looks like spam' },
    'POST /admin/flags/{jobId}/review': { decision: 'approved', notes: 'Fine' },
    'POST /disputes/{id}/messages': { message: 'Hello' },
    'PUT /admin/disputes/{id}/priority': { priority: 'high' },
    'POST /admin/disputes/{id}/resolve': { templateId: 'insufficient-evidence' },
    'POST /admin/disputes/bulk-resolve': { disputeIds: ['x'], templateId: 'insufficient-evidence' },
    // Showing a category changes nothing here: hiding one would refuse the other tests' jobs.
    'PUT /admin/categories': { category: 'Other', hidden: false, reason: 'Still wanted' },
    // Suspended, then reinstated (declaration order): the stranger is refused in between, never more.
    'POST /admin/users/{id}/suspend': { reason: 'Spam messages' },
    'POST /admin/users/{id}/reinstate': { reason: 'Cleared up' },
    'POST /admin/users/{id}/password-reset': { reason: 'Asked by phone' },
    'POST /admin/users/{id}/identity-revocation': { reason: 'Documents reported stolen' },
    'PUT /me/push-subscriptions': { endpoint: 'https://fcm.googleapis.com/fcm/send/authz', keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } },
  };
  function bodyOf(route: DeclaredRoute, party: Party, { job, users, paymentIntentId }: JobUnderTest): unknown {
    switch (route.routeKey) {
      case 'POST /payments/confirm':
        return { paymentIntentId };
      // A worker starts their own; anyone else names the job's worker.
      case 'POST /conversations':
        return party === 'stranger' || party === 'worker' ? { jobId: job.id } : { jobId: job.id, workerId: users.worker.userId };
      case 'POST /conversations/{id}/messages':
        return { id: randomUUID(), content: 'Is the sofa heavy?' };
      default:
        return route.method === 'GET' ? undefined : (BODIES[route.routeKey] ?? {});
    }
  }

  it('declares who may call every route, on which job status, and anonymous callers only on public routes', () => {
    expect(DECLARED_ROUTES.map((route) => route.routeKey).filter((routeKey) => !(routeKey in MAY))).toEqual([]);
    for (const route of DECLARED_ROUTES) {
      for (const status of STATUSES) {
        const may = mayCall(route.routeKey, status);
        expect({ route: route.routeKey, anonymous: may.includes('anonymous') }).toEqual({ route: route.routeKey, anonymous: route.access === 'public' });
        if (route.access === 'admin') expect({ route: route.routeKey, may }).toEqual({ route: route.routeKey, may: may.length ? ['admin'] : [] });
      }
    }
  });

  /**
   * Everyone the table does not name first, on every route and every status, while each job is
   * as its status says; then those it names, whose calls change the jobs (they only must not
   * get a 5xx; a job's deletion goes last).
   */
  it('refuses every party the table does not name, on every job status, and never answers 5xx', async () => {
    const outcomes: string[] = [];
    const expectations: string[] = [];
    const cases = (status: Status) =>
      DECLARED_ROUTES.filter((route) => isPerStatus(MAY[route.routeKey]!) || status === 'open').map((route) => ({ route, may: mayCall(route.routeKey, status) }));
    for (const allowed of [false, true]) {
      for (const status of STATUSES) {
        const underTest = jobs[status];
        const ordered = cases(status).sort((a, b) => Number(a.route.routeKey === 'DELETE /jobs/{id}') - Number(b.route.routeKey === 'DELETE /jobs/{id}'));
        for (const { route, may } of ordered) {
          for (const party of PARTIES.filter((candidate) => may.includes(candidate) === allowed)) {
            const user = party === 'anonymous' ? undefined : underTest.users[party];
            const { status: answer } = await api(stack(), route.method, pathOf(route, underTest), { token: user?.idToken, body: bodyOf(route, party, underTest) });
            const expected = allowed
              ? 'not 5xx'
              : party === 'anonymous'
                ? '401'
                : route.access === 'admin'
                  ? '403'
                  : 'a 4xx refusal';
            const holds = allowed ? answer < 500 : expected === '401' ? answer === 401 : expected === '403' ? answer === 403 : answer >= 400 && answer < 500;
            const name = `${route.routeKey} on ${status} as ${party}`;
            outcomes.push(`${name}: ${holds ? expected : `${answer}, expected ${expected}`}`);
            expectations.push(`${name}: ${expected}`);
          }
        }
      }
    }
    expect(outcomes).toEqual(expectations);
  }, 180_000);
});
