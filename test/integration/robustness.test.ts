import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobSummary, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { jobIndexKeys, newJob, type JobItem } from '../../functions/jobs/jobs.js';
import { keys } from '../../functions/table.js';
import { MAX_BODY_DEPTH } from '../../functions/lib/http.js';
import { jobForm, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster } from '../support/payments.js';
import { DECLARED_ROUTES, fillPath } from '../support/routes.js';

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('bad input gets a clear 4xx (issue 15)', () => {
  // A budget past what one user's calls here add up to (a bad body on every declared route, twice,
  // and the posts after): these tests are about input, client-budget.test.ts about the budget.
  const stack = useLocalStack({ clientBudgetPerMinute: 1000 });
  let poster: TestUser;
  let worker: TestUser;
  let admin: TestUser;
  let jobs: JobSummary[];

  beforeAll(async () => {
    [poster, worker, admin] = await Promise.all([createPoster(stack()), createUser(stack(), { role: 'worker' }), createUser(stack(), { role: 'admin' })]);
    jobs = [await postOpenJob(stack(), poster, { title: 'First open job' }), await postOpenJob(stack(), poster, { title: 'Second open job' })];
  }, 120_000);

  it('answers forged cursors 400 and still pages with real ones', async () => {
    const [openShard, otherOpenShard] = keys.jobsByStatus('open').partitions;
    /** A cursor of the open-jobs list whose first shard continues after `key` (the others from their start). */
    const firstShardAfter = (key: object) => cursorOf(keys.jobsByStatus('open').partitions.map((_, shard) => (shard === 0 ? { after: key } : 'start')));
    const forged = [
      'e30', // {}
      cursorOf([]),
      cursorOf({ pk: 'JOB#x', sk: 'JOB' }),
      cursorOf({ pk: 'JOB#x', sk: 'JOB', gsi1pk: openShard, gsi1sk: 'x' }), // one key where every shard's position belongs
      firstShardAfter({ pk: 'JOB#x', sk: 'JOB', gsi1pk: keys.jobsByStatus('draft').partitions[0], gsi1sk: 'x' }), // another list
      firstShardAfter({ pk: 'JOB#x', sk: 'JOB', gsi1pk: otherOpenShard ?? 'JOBS#open', gsi1sk: 'x' }), // another shard
      firstShardAfter({ pk: 'JOB#x', sk: 'JOB', gsi1pk: openShard, gsi1sk: 'x'.repeat(1100) }),
      firstShardAfter({ pk: 1, sk: 'JOB', gsi1pk: openShard, gsi1sk: 'x' }),
      cursorOf([...keys.jobsByStatus('open').partitions.map(() => 'start'), 'start']), // one shard too many
      '%%%',
    ];
    const paths = ['/jobs', '/feed/jobs', '/jobs?q=open', `/profiles/${poster.userId}/reviews`];
    for (const path of paths) {
      for (const cursor of forged) {
        const separator = path.includes('?') ? '&' : '?';
        const response = await api(stack(), 'GET', `${path}${separator}cursor=${encodeURIComponent(cursor)}`, { token: worker.idToken });
        expect({ path, cursor, response }).toEqual({ path, cursor, response: { status: 400, body: { error: MSG.backend.invalidCursor } } });
      }
    }
    const first = await api<Page<JobSummary>>(stack(), 'GET', '/jobs?limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await api<Page<JobSummary>>(stack(), 'GET', `/jobs?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items.map((job) => job.id)).not.toEqual(first.body.items.map((job) => job.id));
  });

  it('answers ids of the wrong shape 404 before reading anything', async () => {
    const long = 'a'.repeat(4000);
    for (const path of [`/jobs/${long}`, `/profiles/${long}`, `/jobs/${jobs[0]!.id}/applications/${long}/accept`, `/me/saved-jobs/${long}`]) {
      const method = path.startsWith('/me/saved-jobs') ? 'PUT' : path.endsWith('accept') ? 'POST' : 'GET';
      expect((await api(stack(), method, path, { token: poster.idToken })).status).toBe(404);
    }
    expect((await api(stack(), 'POST', `/admin/payments/${long}/refund`, { token: admin.idToken, body: { reason: 'x' } })).status).toBe(404);
    expect((await api(stack(), 'GET', `/jobs/${randomUUID()}`, { token: poster.idToken })).status).toBe(404);
  });

  it('answers unknown Stripe ids 404 and lone surrogates 400', async () => {
    expect(await api(stack(), 'POST', '/payments/confirm', { token: poster.idToken, body: { paymentIntentId: 'pi_doesnotexist' } })).toEqual({
      status: 404,
      body: { error: MSG.backend.referencedNotFound },
    });
    expect(await api(stack(), 'POST', '/payments/confirm', { token: poster.idToken, body: '{"paymentIntentId":"pi_\\ud800"}' })).toEqual({
      status: 400,
      body: { error: MSG.backend.invalidText },
    });
    expect(await api(stack(), 'POST', '/admin/payments/pi_doesnotexist/refund', { token: admin.idToken, body: { reason: 'Duplicate' } })).toEqual({
      status: 404,
      body: { error: MSG.payments.refundFailed },
    });
  });

  it('refunds once and answers a second refund with another reason 409, not 500', async () => {
    const path = `/admin/payments/${await paymentIntentOf(jobs[1]!)}/refund`;
    // The first answer's `refunded` depends on whether Stripe's refund.created webhook reached the row first.
    expect((await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Duplicate listing' } })).status).toBe(200);
    expect(await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Another reason' } })).toEqual({
      status: 409,
      body: { error: MSG.admin.alreadyRefunded },
    });
  });

  it('refuses a body nested past the limit with a 400 on every declared route, before any work', async () => {
    const tooDeep = [`${'['.repeat(5000)}${']'.repeat(5000)}`, `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`];
    const outcomes: string[] = [];
    // Every route that can carry a body (fetch sends none with a GET).
    for (const route of DECLARED_ROUTES.filter((declared) => declared.method !== 'GET')) {
      const token = (route.access === 'admin' ? admin : poster).idToken;
      // Ids that name nothing: the refusal comes before anything is looked up.
      const path = fillPath(route.template, () => randomUUID());
      for (const body of tooDeep) {
        const response = await api(stack(), route.method, path, { token, body });
        outcomes.push(`${route.routeKey} ${body.slice(0, 5)}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    const refused = `400 ${JSON.stringify({ error: MSG.backend.nestedTooDeeply(MAX_BODY_DEPTH) })}`;
    expect(outcomes).toEqual(outcomes.map((outcome) => `${outcome.slice(0, outcome.indexOf(': '))}: ${refused}`));
    // At the limit the body is parsed and judged by the route's schema.
    const atLimit = await api(stack(), 'POST', '/jobs', { token: poster.idToken, body: `${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}` });
    expect(atLimit.status).toBe(400);
    expect(atLimit.body).not.toEqual({ error: MSG.backend.nestedTooDeeply(MAX_BODY_DEPTH) });
  });

  it('answers malformed %-escapes 400 in both local gateways and keeps serving', async () => {
    expect((await fetch(`${stack().urls.api}/jobs/%E0%A4%A`)).status).toBe(400);
    expect((await fetch(`${stack().urls.api}/jobs/%E0%A4%A/applications`, { method: 'POST' })).status).toBe(400);
    const management = stack().urls.webSocket.replace(/^ws/, 'http');
    expect((await fetch(`${management}/@connections/%E0%A4%A`, { method: 'POST', body: 'x' })).status).toBe(400);
    expect((await fetch(`${stack().urls.api}/jobs`)).status).toBe(200);
  });

  it('never leaves a saved entry behind when saving races deleting the job (#7)', async () => {
    for (let round = 0; round < 8; round++) {
      const job = await insertOpenJob(`Race ${round}`);
      await Promise.all([
        api(stack(), 'PUT', `/me/saved-jobs/${job.id}`, { token: worker.idToken }),
        api(stack(), 'DELETE', `/jobs/${job.id}`, { token: poster.idToken }),
      ]);
      const saved = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.savedJob(worker.userId, job.id) }));
      expect({ round, saved: saved.Item }).toEqual({ round, saved: undefined });
      expect(await queryIndex(stack(), 'GSI3', keys.jobReferences(job.id))).toEqual([]);
    }
    expect(await queryIndex(stack(), 'GSI1', keys.savedJobsOf(worker.userId))).toEqual([]);
  });

  it('stores job text without markup (#8)', async () => {
    const job = await postOpenJob(stack(), poster, { title: '<b>Fix</b> a <script>x</script>sink', description: '<p onclick=x()>Leaky</p>' });
    expect(job).toMatchObject({ title: 'Fix a xsink', description: 'Leaky' });
  });

  /** An open job written straight to the table (posting through Stripe is rate-limited to 3 a minute). */
  async function insertOpenJob(title: string): Promise<JobItem> {
    const job = newJob(createJobSchema.parse({ ...jobForm, title }), poster.userId, new Date().toISOString());
    await tableClient(stack()).send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.job(job.id), type: 'job', ...job, ...jobIndexKeys(job) } }));
    return job;
  }

  async function paymentIntentOf(job: JobSummary): Promise<string> {
    const listed = await api<{ items: { jobId: string; stripePaymentIntentId: string }[] }>(stack(), 'GET', '/admin/payments', { token: admin.idToken });
    return listed.body.items.find((payment) => payment.jobId === job.id)!.stripePaymentIntentId;
  }
});
