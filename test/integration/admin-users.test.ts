import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AdminActionView, AdminFlaggedJob, AdminUserDetail, AdminUserSummary } from '../../shared/admin.js';
import type { JobCardSummary, JobSummary, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { MAX_PENDING_APPLICATIONS } from '../../shared/limits.js';
import { keys } from '../../functions/table.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, signIn, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { USER_POOL_SETTINGS } from '../../infra/user-pool-settings.js';
import { createPoster, settle } from '../support/payments.js';

/** Opens a socket as the browser does; `closed` resolves when the server ends it. */
function connect(url: string): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () => resolve({ socket, closed }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

describe("the admin's users: search, suspension, reinstatement, password reset", () => {
  const stack = useLocalStack();
  let admin: TestUser;
  let poster: TestUser;
  let worker: TestUser;
  let openJob: JobSummary;
  let assignedJob: JobSummary;

  const asAdmin = <T>(method: string, path: string, body?: unknown) => api<T>(stack(), method, path, { token: admin.idToken, body });
  const search = async (query: string) => (await asAdmin<Page<AdminUserSummary>>('GET', `/admin/users?${query}`)).body;
  const ids = (page: Page<AdminUserSummary>) => page.items.map((user) => user.id);
  const publicJobs = async () => (await api<Page<JobCardSummary>>(stack(), 'GET', '/jobs?limit=50')).body.items.map((job) => job.id);
  const searchedJobs = async () => (await api<Page<JobCardSummary>>(stack(), 'GET', '/jobs?q=xylophone&limit=50')).body.items.map((job) => job.id);
  const refreshWith = (refreshToken: string) =>
    cognitoClient(stack().urls.cognito).send(
      new InitiateAuthCommand({ ClientId: stack().userPool.clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } }),
    );

  beforeAll(async () => {
    [admin, poster, worker] = await Promise.all([
      createUser(stack(), { role: 'admin' }),
      createPoster(stack(), { name: 'Quentin Xylander' }),
      createReadyUser(stack(), 'worker'),
    ]);
    openJob = await postOpenJob(stack(), poster, { title: 'Tune a xylophone' });
    assignedJob = await postOpenJob(stack(), poster, { title: 'Carry a xylophone upstairs' });
    expect((await api(stack(), 'POST', `/jobs/${assignedJob.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${assignedJob.id}/applications/${worker.userId}/accept`, { token: poster.idToken })).status).toBe(200);
    await settle(stack());
  }, 120_000);

  it('finds users by a name or an email prefix, case-insensitively, through the index, and filters by role and status', async () => {
    expect(ids(await search('q=quentin%20xyl'))).toEqual([poster.userId]);
    expect(ids(await search('q=QUENT'))).toEqual([poster.userId]);
    const emailPrefix = poster.email.slice(0, poster.email.indexOf('@'));
    expect(ids(await search(`q=${encodeURIComponent(emailPrefix.toUpperCase())}`))).toEqual([poster.userId]);
    expect((await search(`q=${encodeURIComponent(poster.email)}`)).items).toEqual([
      { id: poster.userId, name: 'Quentin Xylander', email: poster.email, role: 'poster', accountStatus: 'active', identityVerified: false, createdAt: expect.any(String) },
    ]);
    expect(ids(await search('q=quentin&role=worker'))).toEqual([]);
    expect(ids(await search('q=quentin&role=poster&status=active'))).toEqual([poster.userId]);
    expect(ids(await search('q=quentin&status=suspended'))).toEqual([]);
    // Without a text: everyone, by name, a page at a time.
    const everyone = await search('');
    expect(ids(everyone)).toEqual(expect.arrayContaining([admin.userId, poster.userId, worker.userId]));
    expect(everyone.items.map((user) => user.name)).toEqual([...everyone.items.map((user) => user.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it('refuses non-admins, and every action without a reason', async () => {
    for (const user of [poster, worker]) {
      expect((await api(stack(), 'GET', '/admin/users?q=q', { token: user.idToken })).status).toBe(403);
      expect((await api(stack(), 'POST', `/admin/users/${worker.userId}/suspend`, { token: user.idToken, body: { reason: 'x' } })).status).toBe(403);
    }
    for (const action of ['suspend', 'reinstate', 'password-reset']) {
      for (const body of [{}, { reason: '   ' }]) {
        const refused = await asAdmin<{ error: string }>('POST', `/admin/users/${worker.userId}/${action}`, body);
        expect({ action, refused }).toEqual({ action, refused: { status: 400, body: expect.objectContaining({ error: MSG.admin.userActionReasonRequired }) } });
      }
    }
    expect((await asAdmin('POST', `/admin/users/${admin.userId}/suspend`, { reason: 'Testing' })).body).toEqual(
      expect.objectContaining({ error: MSG.admin.adminAccountOutOfReach }),
    );
    expect((await asAdmin('GET', `/admin/users/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("suspends: sign-in and refresh refused as Cognito refuses them, the old token refused, the socket closed, open jobs hidden, assigned ones flagged", async () => {
    const session = await cognitoClient(stack().urls.cognito).send(
      new InitiateAuthCommand({ ClientId: stack().userPool.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: poster.email, PASSWORD: poster.password } }),
    );
    const refreshToken = session.AuthenticationResult!.RefreshToken!;
    const live = await connect(`${stack().urls.webSocket}?token=${poster.idToken}`);
    expect(await publicJobs()).toContain(openJob.id);
    expect(await searchedJobs()).toContain(openJob.id);

    const suspended = await asAdmin<AdminUserSummary>('POST', `/admin/users/${poster.userId}/suspend`, { reason: 'Asked workers to pay cash' });
    expect(suspended).toEqual({ status: 200, body: expect.objectContaining({ id: poster.userId, accountStatus: 'suspended' }) });
    expect(await live.closed).toBe(1000);

    await expect(signIn(stack(), poster.email, poster.password)).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    await expect(refreshWith(refreshToken)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect(await api(stack(), 'GET', '/me', { token: poster.idToken })).toEqual({ status: 403, body: { error: MSG.auth.accountSuspended } });
    expect((await api(stack(), 'POST', '/uploads/images', { token: poster.idToken, body: { purpose: 'job', fileName: 'a.png', contentType: 'image/png', size: 100 } })).status).toBe(403);
    await expect(connect(`${stack().urls.webSocket}?token=${poster.idToken}`)).rejects.toThrow('refused: 403');
    // A second suspension is refused and records nothing.
    expect((await asAdmin('POST', `/admin/users/${poster.userId}/suspend`, { reason: 'Again' })).status).toBe(409);

    await settle(stack());
    expect(await publicJobs()).not.toContain(openJob.id);
    expect(await searchedJobs()).toEqual([]);
    expect((await api<Page<JobCardSummary>>(stack(), 'GET', '/feed/jobs?limit=50', { token: worker.idToken })).body.items.map((job) => job.id)).not.toContain(openJob.id);
    // Nor does a saved link reach it: no application, no new conversation.
    expect(await api(stack(), 'POST', `/jobs/${openJob.id}/applications`, { token: worker.idToken, body: {} })).toEqual({ status: 409, body: { error: MSG.jobs.noLongerAvailable } });
    expect(await api(stack(), 'POST', '/conversations', { token: worker.idToken, body: { jobId: openJob.id } })).toEqual({ status: 409, body: { error: MSG.jobs.noLongerAvailable } });
    // The admin still sees the job, and the assigned one waits for a decision among the flags.
    expect((await asAdmin<Page<JobSummary>>('GET', '/admin/jobs?status=open')).body.items.map((job) => job.id)).toContain(openJob.id);
    const flags = (await asAdmin<Page<AdminFlaggedJob>>('GET', '/admin/flags')).body.items.filter((flag) => flag.reporterId === 'system#suspension');
    expect(flags.map((flag) => flag.jobId)).toEqual([assignedJob.id]);
    expect(flags[0]!.reason).toBe(MSG.admin.suspendedJobFlagReason('Quentin Xylander', 'Asked workers to pay cash'));

    expect(ids(await search('q=quentin&status=suspended'))).toEqual([poster.userId]);
    const audit = (await asAdmin<Page<AdminActionView>>('GET', '/admin/actions?type=suspend_user')).body.items;
    expect(audit).toEqual([expect.objectContaining({ adminId: admin.userId, targetType: 'user', targetId: poster.userId, reason: 'Asked workers to pay cash' })]);
  });

  it("shows the suspended user's page: profile, payment account, jobs, applications, payments and the audit trail", async () => {
    const { status, body } = await asAdmin<AdminUserDetail>('GET', `/admin/users/${poster.userId}`);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ id: poster.userId, name: 'Quentin Xylander', accountStatus: 'suspended', suspension: { reason: 'Asked workers to pay cash' } });
    expect(body.paymentAccount).toMatchObject({ connected: true });
    expect(body.jobsPosted.map((job) => job.id).sort()).toEqual([openJob.id, assignedJob.id].sort());
    expect(body.payments.map((payment) => payment.jobId).sort()).toEqual([openJob.id, assignedJob.id].sort());
    // The admin's actions about them, beside the security events of their own refused calls (they tried admin routes above).
    expect(body.auditTrail.filter((entry) => entry.adminId !== 'system').map((entry) => entry.actionType)).toEqual(['suspend_user']);
    expect(new Set(body.auditTrail.filter((entry) => entry.adminId === 'system').map((entry) => entry.actionType))).toEqual(new Set(['insufficient_permissions']));

    const workerPage = (await asAdmin<AdminUserDetail>('GET', `/admin/users/${worker.userId}`)).body;
    expect(workerPage.jobsWorked.map((job) => job.id)).toEqual([assignedJob.id]);
    expect(workerPage.applications.map((application) => application.job.id)).toEqual([assignedJob.id]);
  });

  it('reinstates: sign-in works again and the open jobs are listed again', async () => {
    expect((await asAdmin('POST', `/admin/users/${worker.userId}/reinstate`, { reason: 'Not suspended' })).status).toBe(409);
    const reinstated = await asAdmin<AdminUserSummary>('POST', `/admin/users/${poster.userId}/reinstate`, { reason: 'Explained, first warning' });
    expect(reinstated.body).toMatchObject({ accountStatus: 'active' });
    const token = await signIn(stack(), poster.email, poster.password);
    expect((await api(stack(), 'GET', '/me', { token })).status).toBe(200);
    expect((await api(stack(), 'GET', '/me', { token: poster.idToken })).status).toBe(200);
    await settle(stack());
    expect(await publicJobs()).toContain(openJob.id);
    expect(await searchedJobs()).toContain(openJob.id);
    const trail = (await asAdmin<AdminUserDetail>('GET', `/admin/users/${poster.userId}`)).body.auditTrail.filter((entry) => entry.adminId !== 'system');
    expect(trail.map((entry) => [entry.actionType, entry.reason])).toEqual([
      ['reinstate_user', 'Explained, first warning'],
      ['suspend_user', 'Asked workers to pay cash'],
    ]);
  });

  it('sends a password reset email through Cognito, with an audit entry', async () => {
    const mailsBefore = stack().mailbox.list(worker.email).length;
    const reset = await asAdmin('POST', `/admin/users/${worker.userId}/password-reset`, { reason: 'Asked by phone' });
    expect(reset.status).toBe(200);
    const mails = stack().mailbox.list(worker.email);
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails[0]).toMatchObject({ subject: USER_POOL_SETTINGS.verificationEmail.subject, code: expect.any(String) });
    const audit = (await asAdmin<Page<AdminActionView>>('GET', '/admin/actions?type=reset_user_password')).body.items;
    expect(audit).toEqual([expect.objectContaining({ targetId: worker.userId, reason: 'Asked by phone' })]);
  });

  it('lets a suspension race applications: each is recorded and counted, or refused as no longer available, never half of both', async () => {
    // As many applicants as the job takes, sent one by one across the time a suspension takes here
    // (Cognito, the sockets, then the jobs), so that some land before the job is hidden and some
    // after; the assertions hold whichever way the timing falls.
    const [racingPoster, ...applicants] = await Promise.all([
      createPoster(stack(), { name: 'Rae Racer' }),
      ...Array.from({ length: MAX_PENDING_APPLICATIONS }, () => createReadyUser(stack(), 'worker')),
    ]);
    const job = await postOpenJob(stack(), racingPoster);
    await settle(stack());
    const [suspension, ...answers] = await Promise.all([
      asAdmin('POST', `/admin/users/${racingPoster.userId}/suspend`, { reason: 'Racing' }),
      ...applicants.map(async (applicant, index) => {
        await new Promise((resolve) => setTimeout(resolve, 150 + index * 300));
        return api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: applicant.idToken, body: {} });
      }),
    ]);
    expect(suspension.status).toBe(200);
    for (const answer of answers) {
      if (answer.status !== 201) expect(answer).toEqual({ status: 409, body: { error: MSG.jobs.noLongerAvailable } });
    }
    // The table agrees with the answers: one application per 201, and the job's count of them.
    const recorded = await tableClient(stack()).send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :job AND begins_with(sk, :application)', ExpressionAttributeValues: { ':job': keys.job(job.id).pk, ':application': keys.applicationPrefix() } }),
    );
    const accepted = applicants.filter((_, index) => answers[index]!.status === 201).map((applicant) => applicant.userId);
    expect((recorded.Items ?? []).map((item) => item.workerId).sort()).toEqual(accepted.sort());
    const { Item: stored } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.job(job.id) }));
    expect({ pendingApplications: stored!.pendingApplications ?? 0, posterSuspended: stored!.posterSuspended }).toEqual({ pendingApplications: accepted.length, posterSuspended: true });
    // Once suspended, the job takes none.
    const late = await createReadyUser(stack(), 'worker');
    expect(await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: late.idToken, body: {} })).toEqual({ status: 409, body: { error: MSG.jobs.noLongerAvailable } });
  }, 120_000);
});
