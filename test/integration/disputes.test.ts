import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type {
  AdminDispute,
  AppNotification,
  BulkResolveResult,
  Dispute,
  DisputeCenterState,
  DisputeMessage,
  DisputeThread,
  JobSummary,
  Page,
  ResolutionTemplate,
} from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { PRIORITY_WEIGHT } from '../../shared/disputes.js';
import { keys } from '../../functions/table.js';
import { createReadyUser, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';

describe('disputes between the parties of a job, resolved by the admin', () => {
  const stack = useLocalStack();
  let adminUser: Promise<TestUser> | undefined;
  /** The one admin of this stack, signed up on first use. */
  const admin = () => (adminUser ??= createUser(stack(), { role: 'admin' }));

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) =>
    api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const center = async (job: { id: string }, user: TestUser) => (await call<DisputeCenterState>(user, 'GET', `/jobs/${job.id}/dispute`)).body;
  const file = (job: { id: string }, user: TestUser, body: object = { type: 'quality', description: 'The fence was left half painted.' }) =>
    call<Dispute>(user, 'POST', `/jobs/${job.id}/dispute`, body);
  const thread = (dispute: { id: string }, user: TestUser) => call<DisputeThread>(user, 'GET', `/disputes/${dispute.id}/messages`);
  const post = (dispute: { id: string }, user: TestUser, message: unknown) => call<DisputeMessage>(user, 'POST', `/disputes/${dispute.id}/messages`, { message });
  const notifications = async (user: TestUser) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items;

  /** A job the worker was accepted on: assigned, with both parties. */
  async function assignedJob(poster: TestUser, worker: TestUser, title = 'Paint a fence'): Promise<JobSummary> {
    const job = await postOpenJob(stack(), poster, { title });
    await call(worker, 'POST', `/jobs/${job.id}/applications`, {});
    const accepted = await call<JobSummary>(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`);
    expect(accepted.status).toBe(200);
    return accepted.body;
  }

  it('lets a party of a job with a worker file against the other party, by status as spec 2 §5 says', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const [worker, otherWorker] = [await createReadyUser(stack(), 'worker'), await createReadyUser(stack(), 'worker')];
    const open = await postOpenJob(stack(), poster, { title: 'Nobody yet' });
    expect(await center(open, poster)).toEqual({ state: 'unable', jobId: open.id });
    expect(await file(open, poster)).toEqual({ status: 409, body: { error: MSG.disputes.cannotSubmit } });

    const job = await assignedJob(poster, worker);
    expect(await center(job, worker)).toEqual({ state: 'form', jobId: job.id, jobTitle: 'Paint a fence', reportedId: poster.userId });
    expect(await center(job, poster)).toMatchObject({ state: 'form', reportedId: worker.userId });
    expect((await file(job, poster, { type: 'quality', description: '   ' })).body).toMatchObject({ error: MSG.disputes.fillRequired });
    expect((await file(job, poster, { type: 'other', description: 'x' })).body).toMatchObject({ error: MSG.disputes.fillRequired });
    expect((await file(job, poster, { description: 'x' })).body).toMatchObject({ error: MSG.disputes.fillRequired });

    // Paid: the poster still may, the worker no longer (only active or completed jobs).
    await setJobStatus(stack(), job, 'paid');
    expect(await center(job, worker)).toEqual({ state: 'unable', jobId: job.id });
    const byPoster = await file(job, poster, { type: 'payment', description: '  Charged twice.  ' });
    expect(byPoster.status).toBe(201);
    expect(byPoster.body).toMatchObject({
      jobId: job.id,
      jobTitle: 'Paint a fence',
      reporterId: poster.userId,
      reportedId: worker.userId,
      type: 'payment',
      priority: 'medium',
      status: 'open',
      description: 'Charged twice.',
      resolution: null,
    });
    expect(await center(job, poster)).toEqual({ state: 'under_review', jobId: job.id, jobTitle: 'Paint a fence', dispute: byPoster.body });

    // A formerly assigned worker (unassigned) and the poster of the reopened job still have each other.
    const reopened = await assignedJob(poster, otherWorker, 'Mow the lawn');
    expect((await call(poster, 'POST', `/jobs/${reopened.id}/unassign`)).status).toBe(200);
    expect(await center(reopened, otherWorker)).toMatchObject({ state: 'form', reportedId: poster.userId });
    expect(await center(reopened, poster)).toMatchObject({ state: 'form', reportedId: otherWorker.userId });
    expect((await file(reopened, otherWorker)).status).toBe(201);
  });

  it('makes one dispute of ten identical simultaneous filings and tells the reported party and the admin', async () => {
    const theAdmin = await admin();
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await assignedJob(poster, worker);

    const attempts = await Promise.all(Array.from({ length: 10 }, () => file(job, worker)));
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const refused of attempts.filter((attempt) => attempt.status === 409)) expect(refused.body).toEqual({ error: MSG.disputes.alreadyFiled });
    const dispute = attempts.find((attempt) => attempt.status === 201)!.body;
    expect(await center(job, worker)).toMatchObject({ state: 'under_review', dispute: { id: dispute.id } });

    const mine = (await call<{ items: Dispute[] }>(worker, 'GET', '/me/disputes')).body.items;
    expect(mine.map((item) => item.id)).toEqual([dispute.id]);
    const notice = { type: 'dispute_update', jobId: job.id, title: MSG.disputes.filedTitle, metadata: { disputeId: dispute.id, jobTitle: job.title } };
    expect((await notifications(poster)).filter((notification) => notification.type === 'dispute_update')).toEqual([expect.objectContaining(notice)]);
    expect(await notifications(theAdmin)).toContainEqual(expect.objectContaining(notice));
    expect(await notifications(worker)).not.toContainEqual(expect.objectContaining({ type: 'dispute_update' }));
  });

  it('keeps a thread between the two parties and the admin, oldest first, read-only once resolved', async () => {
    const theAdmin = await admin();
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const [first, second] = [await assignedJob(poster, worker, 'First'), await assignedJob(poster, worker, 'Second')];
    const older = (await file(first, worker)).body;
    const newer = (await file(second, poster)).body;
    for (const party of [worker, poster]) {
      const listed = (await call<{ items: Dispute[] }>(party, 'GET', '/me/disputes')).body.items;
      expect(listed.map((item) => item.id)).toEqual([newer.id, older.id]);
    }

    const fromWorker = await post(older, worker, '  I came back twice.  ');
    expect(fromWorker).toMatchObject({ status: 201, body: { disputeId: older.id, senderId: worker.userId, message: 'I came back twice.', isAdmin: false } });
    expect((await post(older, poster, ' \n ')).body).toEqual(expect.objectContaining({ error: MSG.disputes.messageRequired }));
    await post(older, poster, 'The gate is still unpainted.');
    const fromAdmin = await post(older, theAdmin, 'Please both send photos.');
    expect(fromAdmin.body).toMatchObject({ senderId: theAdmin.userId, isAdmin: true });
    const read = (await thread(older, poster)).body;
    expect(read.dispute.id).toBe(older.id);
    expect(read.messages.map((message) => message.message)).toEqual(['I came back twice.', 'The gate is still unpainted.', 'Please both send photos.']);

    const resolved = await call<Dispute>(theAdmin, 'POST', `/admin/disputes/${older.id}/resolve`, { resolution: '  Split the difference.  ' });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolution: 'Split the difference.', resolvedBy: theAdmin.userId });
    expect(await post(older, worker, 'One more thing')).toEqual({ status: 409, body: { error: MSG.disputes.threadClosed } });
    expect(await post(older, theAdmin, 'One more thing')).toEqual({ status: 409, body: { error: MSG.disputes.threadClosed } });
    expect((await thread(older, worker)).body.messages).toHaveLength(3);
    expect(await call(theAdmin, 'POST', `/admin/disputes/${older.id}/resolve`, { resolution: 'Again' })).toEqual({
      status: 409,
      body: { error: MSG.disputes.alreadyResolved },
    });
    expect(await notifications(worker)).toContainEqual(expect.objectContaining({ type: 'dispute_update', title: MSG.disputes.resolvedTitle }));
  });

  it('answers a third user 403 or 404 and a non-admin 403 on every dispute route', async () => {
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const outsider = await createReadyUser(stack(), 'worker');
    const job = await assignedJob(poster, worker);
    const dispute = (await file(job, worker)).body;
    await post(dispute, poster, 'Hello');

    expect(await center(job, outsider)).toEqual({ error: MSG.disputes.cannotSubmit });
    expect(await file(job, outsider)).toEqual({ status: 403, body: { error: MSG.disputes.cannotSubmit } });
    expect(await thread(dispute, outsider)).toEqual({ status: 404, body: { error: MSG.disputes.notFound } });
    expect(await post(dispute, outsider, 'Let me in')).toEqual({ status: 404, body: { error: MSG.disputes.notFound } });
    expect((await call<{ items: Dispute[] }>(outsider, 'GET', '/me/disputes')).body.items).toEqual([]);
    const adminRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/admin/disputes'],
      ['GET', '/admin/dispute-templates'],
      ['PUT', `/admin/disputes/${dispute.id}/priority`, { priority: 'urgent' }],
      ['POST', `/admin/disputes/${dispute.id}/resolve`, { templateId: 'insufficient-evidence' }],
      ['POST', '/admin/disputes/bulk-resolve', { disputeIds: [dispute.id], templateId: 'insufficient-evidence' }],
    ];
    for (const user of [outsider, worker, poster]) {
      for (const [method, path, body] of adminRoutes) {
        expect(await call(user, method, path, body)).toEqual({ status: 403, body: { error: MSG.auth.insufficientPermissions } });
      }
    }
    expect((await thread(dispute, worker)).body.messages.map((message) => message.message)).toEqual(['Hello']);
    expect((await thread(dispute, worker)).body.dispute).toMatchObject({ status: 'open', priority: 'medium' });
    expect((await api(stack(), 'GET', '/me/disputes')).status).toBe(401);
  });

  it('lists disputes for the admin by priority then newest, moves them with their priority, and resolves by template', async () => {
    const theAdmin = await admin();
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const [a, b] = [await assignedJob(poster, worker, 'A'), await assignedJob(poster, worker, 'B')];
    const older = (await file(a, worker)).body;
    const newer = (await file(b, worker)).body;
    const openIds = async () =>
      (await call<Page<AdminDispute>>(theAdmin, 'GET', '/admin/disputes?status=open')).body.items
        .map((item) => item.id)
        .filter((id) => id === older.id || id === newer.id);
    expect(await openIds()).toEqual([newer.id, older.id]);

    const raised = await call<Dispute>(theAdmin, 'PUT', `/admin/disputes/${older.id}/priority`, { priority: 'urgent' });
    expect(raised.body).toMatchObject({ id: older.id, priority: 'urgent' });
    expect(await openIds()).toEqual([older.id, newer.id]);
    const stored = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.dispute(older.id) }));
    expect(stored.Item!.gsi3sk).toMatch(new RegExp(`^${PRIORITY_WEIGHT.urgent}#`));
    expect((await call(theAdmin, 'PUT', `/admin/disputes/${older.id}/priority`, { priority: 'critical' })).status).toBe(400);
    expect((await call(theAdmin, 'PUT', `/admin/disputes/${randomUUID()}/priority`, { priority: 'low' })).status).toBe(404);

    const templates = (await call<{ items: ResolutionTemplate[] }>(theAdmin, 'GET', '/admin/dispute-templates')).body.items;
    expect(templates.map((template) => template.title)).toEqual([...templates.map((template) => template.title)].sort((x, y) => x.localeCompare(y)));
    expect(templates.some((template) => template.disputeType === null)).toBe(true);
    expect(templates.some((template) => template.disputeType === 'quality')).toBe(true);
    const template = templates.find((item) => item.disputeType === 'quality')!;
    const resolved = await call<Dispute>(theAdmin, 'POST', `/admin/disputes/${newer.id}/resolve`, { templateId: template.id });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolution: template.resolutionText });
    expect((await call(theAdmin, 'POST', `/admin/disputes/${older.id}/resolve`, {})).body).toMatchObject({ error: MSG.disputes.resolutionRequired });
    expect((await call(theAdmin, 'POST', `/admin/disputes/${older.id}/resolve`, { templateId: 'no-such' })).status).toBe(404);

    expect(await openIds()).toEqual([older.id]);
    const resolvedList = (await call<Page<AdminDispute>>(theAdmin, 'GET', '/admin/disputes?status=resolved')).body.items;
    expect(resolvedList.find((item) => item.id === newer.id)).toMatchObject({ reporterName: 'worker 1', reportedName: 'poster 1' });

    const audit = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((row) => row.targetId === older.id || row.targetId === newer.id);
    expect(audit.map((row) => [row.actionType, row.targetId]).sort()).toEqual(
      [
        ['resolve_dispute_with_template', newer.id],
        ['set_dispute_priority', older.id],
      ].sort(),
    );
  });

  it('bulk-resolves 100 disputes by template: each once, one bulk record, 100 audit rows, failures per dispute', async () => {
    const theAdmin = await admin();
    const poster = await createReadyUser(stack(), 'poster');
    const worker = await createReadyUser(stack(), 'worker');
    const job = await assignedJob(poster, worker);
    const first = (await file(job, worker)).body;
    // 99 more filed disputes, copied in the stored shape of the first (100 jobs would only slow the test).
    const table = tableClient(stack());
    const { Item: template } = await table.send(new GetCommand({ TableName: stack().tableName, Key: keys.dispute(first.id) }));
    const ids = [first.id];
    for (let i = 0; i < 99; i++) {
      const id = randomUUID();
      ids.push(id);
      await table.send(new PutCommand({ TableName: stack().tableName, Item: { ...template, ...keys.dispute(id), id, gsi3sk: `2#${first.createdAt}#${id}` } }));
    }
    const bulk = (body: object) => call<BulkResolveResult>(theAdmin, 'POST', '/admin/disputes/bulk-resolve', body);
    expect((await bulk({ disputeIds: [], templateId: 'resolved-by-agreement' })).body).toMatchObject({ error: MSG.disputes.selectDisputes });
    // An id longer than any (a key DynamoDB refuses) names nothing: a 400, never a 500.
    expect(await bulk({ disputeIds: [ids[0]], templateId: 'x'.repeat(2000) })).toMatchObject({ status: 400, body: { error: MSG.disputes.templateNotFound } });
    expect((await bulk({ disputeIds: ['x'.repeat(2000)], templateId: 'resolved-by-agreement' })).status).toBe(400);

    const [done, racing] = await Promise.all([
      bulk({ disputeIds: ids, templateId: 'resolved-by-agreement' }),
      call<Dispute>(theAdmin, 'POST', `/admin/disputes/${ids[50]}/resolve`, { resolution: 'Settled by phone.' }),
    ]);
    expect(done.status).toBe(200);
    // The single resolution raced one dispute of the bulk: exactly one of the two resolved it.
    const singleWon = racing.status === 200;
    expect(done.body.resolved).toHaveLength(singleWon ? 99 : 100);
    expect(done.body.failed).toEqual(singleWon ? [{ disputeId: ids[50], error: MSG.disputes.alreadyResolved }] : []);

    const again = await bulk({ disputeIds: [ids[0], 'no-such-dispute'], templateId: 'resolved-by-agreement' });
    expect(again.body.resolved).toEqual([]);
    expect(again.body.failed).toEqual([
      { disputeId: ids[0], error: MSG.disputes.alreadyResolved },
      { disputeId: 'no-such-dispute', error: MSG.disputes.notFound },
    ]);

    for (const id of ids) {
      const { Item } = await table.send(new GetCommand({ TableName: stack().tableName, Key: keys.dispute(id) }));
      expect(Item).toMatchObject({ status: 'resolved', gsi3pk: keys.disputesByStatus('resolved') });
    }
    const { Item: record } = await table.send(new GetCommand({ TableName: stack().tableName, Key: keys.disputeBulkAction(done.body.bulkActionId) }));
    expect(record).toMatchObject({ adminId: theAdmin.userId, disputeIds: ids, resolutionTemplateId: 'resolved-by-agreement' });
    expect([...(record!.resolvedIds as string[])].sort()).toEqual([...done.body.resolved].sort());
    const audit = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((row) => ids.includes(row.targetId as string));
    expect(audit).toHaveLength(100);
    const bulkRows = audit.filter((row) => row.actionType === 'bulk_resolve_disputes');
    expect(bulkRows.every((row) => (row.details as { bulkActionId: string }).bulkActionId === done.body.bulkActionId)).toBe(true);
    expect(new Set(audit.map((row) => row.targetId)).size).toBe(100);
  }, 120_000);
});
