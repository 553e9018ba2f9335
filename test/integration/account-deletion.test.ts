import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { personalFieldsOf, type DeletionSweepResult } from '../../functions/people/account-deletion.js';
import type { ProfileItem } from '../../functions/people/profiles.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import type { AdminActionView } from '../../shared/admin.js';
import type { ChatMessage, ConversationView, JobSummary, OwnProfile, Page, PublicProfile, ReviewView } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { sendMessage, startConversation } from '../support/chat.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, signIn, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, settle } from '../support/payments.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('account deletion', () => {
  const stack = useLocalStack();
  const call = <T = unknown>(user: TestUser | undefined, method: string, path: string, body?: unknown) => api<T>(stack(), method, path, { token: user?.idToken, body });
  const ok = async <T = unknown>(promise: Promise<{ status: number; body: T }>) => {
    const response = await promise;
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  };
  const deleteAccount = (user: TestUser, password = user.password) => call<{ error?: string }>(user, 'POST', '/me/deletion', { password });

  const table = () => tableClient(stack());
  const stored = async (key: { pk: string; sk: string }) => (await table().send(new GetCommand({ TableName: stack().tableName, Key: key }))).Item;
  const partition = async (pk: string) =>
    (await table().send(new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }))).Items ?? [];

  /** A job's payment row, found among its poster's payments (GSI2). */
  const paymentOf = async (job: JobSummary) => {
    const rows = (
      await table().send(
        new QueryCommand({ TableName: stack().tableName, IndexName: 'GSI2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': keys.paymentsOfPoster(job.posterId) } }),
      )
    ).Items ?? [];
    return rows.find((row) => row.jobId === job.id);
  };

  /** A job taken through the API to `completed` (and released: `paid`) between a poster and a worker. */
  async function jobBetween(poster: TestUser, worker: TestUser, until: 'assigned' | 'completed' | 'paid', title = 'Mend a gate', whileOpen = async (_job: JobSummary) => {}) {
    const job = await postOpenJob(stack(), poster, { title });
    await ok(call(worker, 'POST', `/jobs/${job.id}/applications`, { message: 'I can do it' }));
    await whileOpen(job);
    await ok(call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`));
    if (until !== 'assigned') await ok(call(worker, 'POST', `/jobs/${job.id}/complete`));
    if (until === 'paid') await ok(call(poster, 'POST', `/jobs/${job.id}/release-payment`));
    await settle(stack());
    return job;
  }

  /** Uploads an avatar through a presigned POST and sets it, as the profile page does. */
  async function setAvatar(user: TestUser): Promise<string> {
    const presigned = await ok(call<{ url: string; fields: Record<string, string>; key: string }>(user, 'POST', '/uploads/images', { purpose: 'avatar', fileName: 'me.png', contentType: 'image/png', size: PNG.length }));
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(PNG)]), 'me.png');
    expect((await fetch(presigned.url, { method: 'POST', body: form })).status).toBeLessThan(300);
    const profile = await ok(call<OwnProfile>(user, 'PATCH', '/me', { profileImage: presigned.key }));
    return profile.profileImage!;
  }

  it('is refused with its reason while a job is assigned or awaits its release, or a dispute is open, and for a wrong password', async () => {
    const [poster, worker] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker')]);
    expect(await deleteAccount(worker, 'not-my-password')).toEqual({ status: 403, body: { error: MSG.accountDeletion.wrongPassword } });
    expect((await deleteAccount(worker, '')).status).toBe(400);

    const job = await jobBetween(poster, worker, 'assigned');
    for (const user of [poster, worker]) expect(await deleteAccount(user)).toEqual({ status: 409, body: { error: MSG.accountDeletion.assignedJob } });

    await ok(call(worker, 'POST', `/jobs/${job.id}/complete`));
    for (const user of [poster, worker]) expect(await deleteAccount(user)).toEqual({ status: 409, body: { error: MSG.accountDeletion.completedUnpaid } });

    await ok(call(poster, 'POST', `/jobs/${job.id}/release-payment`));
    await ok(call(poster, 'POST', `/jobs/${job.id}/dispute`, { type: 'quality', description: 'The gate still squeaks' }));
    for (const user of [poster, worker]) expect(await deleteAccount(user)).toEqual({ status: 409, body: { error: MSG.accountDeletion.openDispute } });

    // Nothing was deleted: both still sign in, with their names.
    expect((await ok(call<OwnProfile>(worker, 'GET', '/me'))).name).not.toBe(MSG.accountDeletion.deletedName);
    await signIn(stack(), worker.email, worker.password);
  }, 120_000);

  it("removes a worker's sign-in and personal data at once, keeps reviews and messages under 'Deleted user', and is safe to retry", async () => {
    const [poster, worker, admin] = await Promise.all([createPoster(stack(), { name: 'Paula Poster' }), createReadyUser(stack(), 'worker'), createUser(stack(), { role: 'admin' })]);
    let conversation: ConversationView | undefined;
    const paid = await jobBetween(poster, worker, 'paid', 'Fix the fence', async (job) => {
      conversation = await startConversation(stack(), worker, { jobId: job.id });
      expect((await sendMessage(stack(), worker, conversation.id, 'When shall I come by?')).status).toBe(201);
    });
    await ok(call(poster, 'POST', `/jobs/${paid.id}/reviews`, { rating: 5, comment: 'Great work' }));
    await ok(call(worker, 'POST', `/jobs/${paid.id}/reviews`, { rating: 4, comment: 'Kind poster, clear brief' }));

    // Personal data of every kind the profile can hold, an application pending on an open job and a saved job.
    const avatarUrl = await setAvatar(worker);
    await ok(call(worker, 'PATCH', '/me', { name: 'Wendy Worker', bio: 'Handy with fences', skills: ['fencing'] }));
    await ok(call(worker, 'PUT', '/me/location', { zip: '78701', timeZone: 'America/Chicago' }));
    const open = await postOpenJob(stack(), poster, { title: 'Paint a door' });
    await ok(call(worker, 'POST', `/jobs/${open.id}/applications`, { message: 'Pick me' }));
    await ok(call(worker, 'PUT', `/me/saved-jobs/${open.id}`));
    const before = (await stored(keys.profile(worker.userId))) as ProfileItem;
    expect(before.stripeAccountId).toBeTruthy();
    expect(before.latitude).toBeDefined();
    const socket = new WebSocket(`${stack().urls.webSocket}?token=${worker.idToken}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    expect(await deleteAccount(worker)).toEqual({ status: 200, body: { deleted: true } });
    await settle(stack());

    // The sign-in is gone, and the open socket closed.
    await expect(signIn(stack(), worker.email, worker.password)).rejects.toThrow();
    await closed;

    // The profile is an anonymous tombstone: every personal field replaced or removed, its index keys and the Stripe link gone.
    const after = (await stored(keys.profile(worker.userId))) as ProfileItem & Record<string, unknown>;
    expect(personalFieldsOf(after)).toEqual([]);
    expect(after).toMatchObject({ name: 'Deleted user', email: '', bio: '', skills: [], location: '', profileImageKey: null, deletedAt: expect.any(String) });
    for (const field of ['latitude', 'longitude', 'market', 'timeZone', 'stripeAccountId', 'gsi1pk']) expect(after[field], field).toBeUndefined();
    expect(await stored(keys.stripeAccount(before.stripeAccountId!))).toBeUndefined();
    expect(JSON.stringify(after)).not.toMatch(/Wendy|fencing|Handy|@example\.com/);
    expect((await fetch(avatarUrl)).status).toBe(404);
    // Of their own partition only the profile and the reviews about them remain (no notifications, saved jobs, alert settings).
    expect((await partition(keys.userPartition(worker.userId))).map((item) => String(item.sk).replace(/#.*/, '')).sort()).toEqual(['PROFILE', 'REVIEW']);

    // The pending application is withdrawn; the open job is the poster's as before.
    expect(await stored(keys.application(open.id, worker.userId))).toBeUndefined();
    expect((await ok(call<JobSummary>(poster, 'GET', `/jobs/${open.id}`))).pendingApplications).toBe(0);

    // The other party keeps the review, the messages and the payment, under 'Deleted user'.
    const reviews = await ok(call<Page<ReviewView>>(poster, 'GET', `/profiles/${poster.userId}/reviews`));
    expect(reviews.items.map(({ review, reviewer }) => [review.comment, reviewer?.name])).toEqual([['Kind poster, clear brief', 'Deleted user']]);
    const workerPage = await ok(call<PublicProfile>(poster, 'GET', `/profiles/${worker.userId}`));
    expect(workerPage).toMatchObject({ name: 'Deleted user', bio: '', skills: [], profileImage: null });
    const messages = await ok(call<{ items: ChatMessage[] }>(poster, 'GET', `/conversations/${conversation!.id}/messages`));
    expect(messages.items.map((message) => [message.senderId, message.content])).toEqual([[worker.userId, 'When shall I come by?']]);
    const conversations = await ok(call<ConversationView[] | { items: ConversationView[] }>(poster, 'GET', '/conversations'));
    expect(JSON.stringify(conversations)).toContain('Deleted user');
    expect(JSON.stringify(conversations)).not.toContain('Wendy');
    expect(await paymentOf(paid)).toMatchObject({ jobId: paid.id });

    // The admin's account is not deleted this way (the console would have none).
    expect(await deleteAccount(admin)).toEqual({ status: 403, body: { error: MSG.accountDeletion.adminAccount } });

    // The admin sees the deletion in the audit log, without the personal data.
    const log = await ok(call<Page<AdminActionView>>(admin, 'GET', '/admin/actions?type=delete_account'));
    const entry = log.items.find((action) => action.targetId === worker.userId);
    expect(entry).toMatchObject({ actionType: 'delete_account', targetType: 'user', details: { role: 'worker' } });
    expect(JSON.stringify(entry)).not.toMatch(/Wendy|@example\.com/);

    // A retry (the token still verifies for its hour) answers the same and records nothing twice.
    expect(await deleteAccount(worker)).toEqual({ status: 200, body: { deleted: true } });
    const again = await ok(call<Page<AdminActionView>>(admin, 'GET', '/admin/actions?type=delete_account'));
    expect(again.items.filter((action) => action.targetId === worker.userId)).toHaveLength(1);
  }, 180_000);

  it("withdraws a poster's open job (refunding its payment) and their sign-in", async () => {
    const poster = await createPoster(stack());
    const open = await postOpenJob(stack(), poster, { title: 'Wash the windows' });
    expect(await deleteAccount(poster)).toEqual({ status: 200, body: { deleted: true } });
    await settle(stack());
    expect(await stored(keys.job(open.id))).toBeUndefined();
    expect(await paymentOf(open)).toMatchObject({ status: 'refunded' });
    await expect(signIn(stack(), poster.email, poster.password)).rejects.toThrow();
  }, 120_000);

  it('is checked by the sweep 30 days on: leftovers are removed and the result recorded, once', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    expect((await deleteAccount(worker)).status).toBe(200);
    const sweep = () => stack().functions.invoke(recurringScheduleName('deletionSweep'), RECURRING_SCHEDULES.deletionSweep, {}) as Promise<DeletionSweepResult>;

    // Not yet 30 days: the sweep leaves it for later.
    expect((await sweep()).leftovers[worker.userId]).toBeUndefined();

    // 31 days on, with something personal put back behind the deletion's back (a restored backup, a bug).
    const longAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await table().send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.accountDeletion(worker.userId), UpdateExpression: 'SET gsi1sk = :then', ExpressionAttributeValues: { ':then': `${longAgo}#${worker.userId}` } }),
    );
    await table().send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId), UpdateExpression: 'SET bio = :bio', ExpressionAttributeValues: { ':bio': 'Restored from a backup' } }),
    );
    await table().send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.savedJob(worker.userId, 'some-job'), jobId: 'some-job' } }));

    const result = await sweep();
    expect(result.leftovers[worker.userId]).toEqual(['own items: 1', 'profile.bio']);
    expect(personalFieldsOf((await stored(keys.profile(worker.userId))) as ProfileItem)).toEqual([]);
    expect(await stored(keys.accountDeletion(worker.userId))).toMatchObject({ sweptAt: expect.any(String), leftovers: ['own items: 1', 'profile.bio'] });
    const log = await partitionOfAudit('verify_account_deletion');
    expect(log.filter((entry) => entry.targetId === worker.userId)).toMatchObject([{ details: { leftovers: ['own items: 1', 'profile.bio'] } }]);

    // Checked once: the next run does not see it again.
    expect((await sweep()).leftovers[worker.userId]).toBeUndefined();
    expect((await partitionOfAudit('verify_account_deletion')).filter((entry) => entry.targetId === worker.userId)).toHaveLength(1);
  }, 120_000);

  const partitionOfAudit = async (actionType: string) =>
    (
      await table().send(
        new QueryCommand({
          TableName: stack().tableName,
          IndexName: 'GSI2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.adminActionsOfType(actionType) },
        }),
      )
    ).Items ?? [];

  it('needs a signed-in caller', async () => {
    expect((await api(stack(), 'POST', '/me/deletion', { body: { password: 'x' } })).status).toBe(401);
  });
});
