import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { JobSummary } from '../../shared/api.js';
import { conversationId } from '../../shared/chat.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { notificationItem } from '../../functions/domain/notifications.js';
import { jobForm, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';
import { DECLARED_ROUTES, fillPath, type DeclaredRoute } from '../support/routes.js';

/**
 * Whose resource a route acts on, beyond its declared access. Every declared route must be
 * here: a new route fails this test until someone says who may use it.
 * - public: anyone, signed in or not; any: any signed-in user, on shared data;
 * - self: the caller's own data only (the path names nothing of anyone else);
 * - poster: the poster's job or its payment; worker: the assigned worker's job;
 * - parties: the poster and the assigned worker of the job; conversation: the job's poster and
 *   the worker who wrote about it (not yet assigned); admin: the admin only (declared or
 *   decided by the handler).
 */
type Ownership = 'public' | 'any' | 'self' | 'poster' | 'worker' | 'parties' | 'conversation' | 'admin';

const OWNERSHIP: Readonly<Record<string, Ownership>> = {
  'GET /accounts/admin-status': 'public',
  'GET /me': 'self',
  'PATCH /me': 'self',
  'GET /profiles/{id}': 'any',
  'POST /uploads/images': 'self',
  'GET /jobs': 'public',
  'GET /feed/jobs': 'any',
  'GET /jobs/{id}': 'any',
  'POST /jobs': 'self',
  'PUT /jobs/{id}': 'poster',
  'POST /jobs/{id}/cancel': 'poster',
  'POST /jobs/{id}/unassign': 'poster',
  'DELETE /jobs/{id}': 'poster',
  'GET /me/jobs': 'self',
  'POST /payments/account': 'self',
  'POST /payments/account/status': 'self',
  'POST /payments/confirm': 'poster',
  'POST /jobs/{id}/release-payment': 'poster',
  'GET /me/earnings': 'self',
  'GET /admin/payments': 'admin',
  'POST /admin/payments/{id}/refund': 'admin',
  'POST /webhooks/stripe': 'public',
  'POST /webhooks/stripe/connect': 'public',
  'GET /me/saved-jobs': 'self',
  'PUT /me/saved-jobs/{jobId}': 'self',
  'DELETE /me/saved-jobs/{jobId}': 'self',
  'GET /me/notifications': 'self',
  'POST /jobs/{id}/applications': 'any',
  'GET /jobs/{id}/applications': 'poster',
  'GET /jobs/{id}/applications/mine': 'self',
  'POST /jobs/{id}/applications/{workerId}/accept': 'poster',
  'POST /jobs/{id}/applications/{workerId}/reject': 'poster',
  'POST /jobs/{id}/complete': 'worker',
  'POST /jobs/{id}/decline-completion': 'worker',
  'GET /me/applications': 'self',
  'POST /jobs/{id}/reviews': 'parties',
  'PUT /jobs/{id}/reviews/{reviewerId}': 'admin',
  'GET /profiles/{id}/reviews': 'any',
  'GET /jobs/{id}/reviews': 'any',
  'GET /me/notifications/unread-count': 'self',
  // The poster's notification: anyone else is answered 404.
  'POST /me/notifications/{id}/read': 'poster',
  'POST /me/notifications/read-all': 'self',
  'PUT /me/location': 'self',
  'PUT /me/notification-preferences': 'self',
  'GET /jobs/{id}/dispute': 'parties',
  'POST /jobs/{id}/dispute': 'parties',
  'GET /me/disputes': 'self',
  'GET /disputes/{id}/messages': 'parties',
  'POST /disputes/{id}/messages': 'parties',
  'GET /admin/disputes': 'admin',
  'PUT /admin/disputes/{id}/priority': 'admin',
  'POST /admin/disputes/{id}/resolve': 'admin',
  'POST /admin/disputes/bulk-resolve': 'admin',
  'GET /admin/dispute-templates': 'admin',
  // The caller's own dashboard (the admin, who has a console, is refused).
  'GET /me/dashboard': 'self',
  // Any signed-in user may report a job (its poster is refused: not their own).
  'POST /jobs/{id}/flags': 'any',
  'GET /admin/jobs': 'admin',
  'GET /admin/flags': 'admin',
  'POST /admin/flags/{jobId}/review': 'admin',
  'GET /admin/markets': 'admin',
  'GET /admin/actions': 'admin',
  'GET /conversations': 'self',
  // A worker may write about any open job; a poster only to a worker about their own job.
  'POST /conversations': 'any',
  'GET /conversations/{id}': 'conversation',
  'GET /conversations/{id}/messages': 'conversation',
  'POST /conversations/{id}/messages': 'conversation',
  'POST /conversations/{id}/read': 'conversation',
  'PUT /conversations/{id}/block': 'conversation',
  'DELETE /conversations/{id}/block': 'conversation',
  'GET /me/unread-messages': 'self',
};

type Caller = 'anonymous' | 'worker' | 'poster' | 'otherPoster' | 'admin';

/** Who must be refused on the poster's open job (no worker assigned yet). */
const REFUSED: Record<Ownership, readonly Caller[]> = {
  public: [],
  any: [],
  self: [],
  poster: ['worker', 'otherPoster'],
  worker: ['poster', 'otherPoster'],
  parties: ['worker', 'otherPoster'],
  conversation: ['otherPoster'],
  admin: ['worker', 'poster', 'otherPoster'],
};

describe('authorisation: every declared route x {anonymous, worker, poster, other poster, admin}', () => {
  const stack = useLocalStack();
  const users: Partial<Record<Caller, TestUser>> = {};
  let job: JobSummary;
  let paymentIntentId: string;
  let notificationId: string;

  beforeAll(async () => {
    const [poster, otherPoster, worker, admin] = await Promise.all([
      createPoster(stack()),
      createPoster(stack()),
      createUser(stack(), { role: 'worker' }),
      createUser(stack(), { role: 'admin' }),
    ]);
    Object.assign(users, { poster, otherPoster, worker, admin });
    job = await postOpenJob(stack(), poster);
    const payments = await api<{ items: { jobId: string; stripePaymentIntentId: string }[] }>(stack(), 'GET', '/admin/payments', { token: admin.idToken });
    paymentIntentId = payments.body.items.find((payment) => payment.jobId === job.id)!.stripePaymentIntentId;
    const notification = notificationItem({ userId: poster.userId, jobId: job.id, type: 'job_completed', title: 'Done', message: 'Done' });
    await tableClient(stack()).send(new PutCommand({ TableName: stack().tableName, Item: notification }));
    notificationId = notification.id;
    // The worker asks about the job: the conversation the chat routes are called on.
    const started = await api(stack(), 'POST', '/conversations', { token: worker.idToken, body: { jobId: job.id } });
    expect(started.status).toBe(201);
  }, 120_000);

  /** The path values that point at the poster's resources. */
  function pathOf(route: DeclaredRoute): string {
    const segments = route.template.split('/');
    return fillPath(route.template, (param) => {
      const owner = param === 'id' ? segments[segments.indexOf(`{${param}}`) - 1] : param;
      const value = { jobs: job.id, jobId: job.id, profiles: users.poster!.userId, payments: paymentIntentId, workerId: users.worker!.userId, reviewerId: users.poster!.userId, notifications: notificationId, disputes: job.id, conversations: conversationId(job.id, users.worker!.userId) }[owner!];
      if (!value) throw new Error(`${route.routeKey}: no test value for {${param}}`);
      return value;
    });
  }

  /** A body that would succeed for the right caller, so a refusal is the server's decision, not the body's. */
  const BODIES: Readonly<Record<string, unknown>> = {
    'PATCH /me': { bio: 'Hello' },
    'POST /uploads/images': { purpose: 'job', fileName: 'a.png', contentType: 'image/png', size: 100 },
    'POST /jobs': jobForm,
    'PUT /jobs/{id}': { ...jobForm, title: 'Taken over' },
    'POST /admin/payments/{id}/refund': { reason: 'Duplicate listing' },
    'POST /jobs/{id}/applications': { message: 'I can do it' },
    'POST /jobs/{id}/decline-completion': { reason: 'Not done' },
    'POST /jobs/{id}/reviews': { rating: 5 },
    'PUT /jobs/{id}/reviews/{reviewerId}': { rating: 1 },
    'PUT /me/location': { zip: '78701', timeZone: 'America/Chicago' },
    'PUT /me/notification-preferences': DEFAULT_NOTIFICATION_PREFERENCES,
    'POST /jobs/{id}/dispute': { type: 'quality', description: 'Not done' },
    'POST /jobs/{id}/flags': { flagType: 'spam', reason: 'Looks like spam' },
    'POST /admin/flags/{jobId}/review': { decision: 'approved', notes: 'Fine' },
    'POST /disputes/{id}/messages': { message: 'Hello' },
    'PUT /admin/disputes/{id}/priority': { priority: 'high' },
    'POST /admin/disputes/{id}/resolve': { templateId: 'insufficient-evidence' },
    'POST /admin/disputes/bulk-resolve': { disputeIds: ['x'], templateId: 'insufficient-evidence' },
  };
  const bodyOf = (route: DeclaredRoute) =>
    route.routeKey === 'POST /payments/confirm'
      ? { paymentIntentId }
      : route.routeKey === 'POST /conversations'
        ? { jobId: job.id }
        : route.routeKey === 'POST /conversations/{id}/messages'
          ? { id: randomUUID(), content: 'Is the sofa heavy?' }
          : route.method === 'GET' || route.method === 'DELETE' ? undefined : (BODIES[route.routeKey] ?? {});

  const call = (route: DeclaredRoute, caller: Caller) =>
    api(stack(), route.method, pathOf(route), { token: users[caller]?.idToken, body: bodyOf(route) }).then((response) => response.status);

  it('declares who owns what for every route', () => {
    expect(DECLARED_ROUTES.map((route) => route.routeKey).filter((routeKey) => !(routeKey in OWNERSHIP))).toEqual([]);
  });

  /**
   * Outsiders first, on every route, while the poster's job is as it was; then the poster and
   * the admin, whose calls change it (they only must not fail with a 5xx).
   */
  it('refuses outsiders and never answers 5xx', async () => {
    const outcomes: string[] = [];
    const expectations: string[] = [];
    const record = (route: DeclaredRoute, caller: Caller, status: number, expected: string, holds: boolean) => {
      outcomes.push(`${route.routeKey} as ${caller}: ${holds ? expected : `${status}, expected ${expected}`}`);
      expectations.push(`${route.routeKey} as ${caller}: ${expected}`);
    };
    for (const phase of [['anonymous', 'worker', 'otherPoster'], ['poster', 'admin']] as const) {
      for (const route of DECLARED_ROUTES) {
        const ownership = OWNERSHIP[route.routeKey]!;
        for (const caller of phase) {
          const status = await call(route, caller);
          if (caller === 'anonymous') {
            if (route.access === 'public') record(route, caller, status, 'not 401, not 5xx', status !== 401 && status < 500);
            else record(route, caller, status, '401', status === 401);
          } else if (route.access === 'admin' && caller !== 'admin') {
            record(route, caller, status, '403', status === 403);
          } else if (REFUSED[ownership].includes(caller)) {
            record(route, caller, status, 'a 4xx refusal', status >= 400 && status < 500);
          } else {
            record(route, caller, status, 'not 5xx', status < 500);
          }
        }
      }
    }
    expect(outcomes).toEqual(expectations);
  });
});
