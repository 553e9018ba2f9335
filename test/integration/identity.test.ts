import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminUserDetail, AdminUserSummary } from '../../shared/admin.js';
import type { AppNotification, ApplicantView, IdentityCheckStart, OwnProfile, Page, PublicProfile } from '../../shared/api.js';
import { IDENTITY_STATUS_TEXTS } from '../../shared/identity.js';
import { MSG } from '../../shared/messages.js';
import { EVENT_RULES } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { ruleFunctionName } from '../../infra/local/eventbridge.js';
import { answerVerificationPage, type VerificationPageOutcome } from '../../infra/local/stripe-simulator/identity.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, settle, stripeOf } from '../support/payments.js';

/**
 * Verified people (issue 47): a Stripe Identity check's result reaches the profile through the
 * webhook exactly once, whatever order and however often Stripe delivers; jobs for ID-verified
 * workers refuse the others, in the application's own transaction; the admin's revocation
 * removes the badge everywhere; only the status is stored, and deletion redacts at Stripe.
 */
describe('identity verification', () => {
  const stack = useLocalStack();
  let admin: TestUser;
  let poster: TestUser;
  /** A second poster: each may start 3 job payments a minute. */
  let otherPoster: TestUser;

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T>(stack(), method, path, { token: user.idToken, body });
  const ownIdentity = async (user: TestUser) => (await call<OwnProfile>(user, 'GET', '/me')).body.identity;
  const identityNotices = async (user: TestUser) =>
    (await call<Page<AppNotification>>(user, 'GET', '/me/notifications')).body.items.filter((notice) => notice.type.startsWith('identity_'));

  /** The user starts a check and answers the simulator's test page with an outcome, as the profile's dialog does. */
  async function tryCheck(user: TestUser, outcome: VerificationPageOutcome): Promise<IdentityCheckStart> {
    const started = await call<IdentityCheckStart>(user, 'POST', '/me/identity-check');
    expect(started.status).toBe(200);
    expect((await answerVerificationPage(stack().urls.stripe, started.body, outcome)).status).toBe(200);
    await settle(stack());
    return started.body;
  }

  /** An `identity.verification_session.<type>` event about the session, delivered (again) to its rule as the bus would. */
  const replay = (sessionId: string, type: string) =>
    stack().functions.invoke(ruleFunctionName('identityChecks'), EVENT_RULES.identityChecks, {
      source: 'stripe',
      'detail-type': `identity.verification_session.${type}`,
      detail: { id: `evt_replayed_${type}`, type: `identity.verification_session.${type}`, data: { object: { id: sessionId, object: 'identity.verification_session' } } },
    });

  async function verifiedWorker(): Promise<TestUser> {
    const worker = await createReadyUser(stack(), 'worker');
    await tryCheck(worker, 'verified');
    expect((await ownIdentity(worker))?.status).toBe('verified');
    return worker;
  }

  beforeAll(async () => {
    [admin, poster, otherPoster] = await Promise.all([
      createUser(stack(), { role: 'admin' }),
      createPoster(stack(), { name: 'Vera Verified-Only' }),
      createPoster(stack(), { name: 'Otto Other' }),
    ]);
  }, 120_000);

  it('takes in each outcome once, with every event delivered three times in shuffled order, and tells the user each time', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    expect(await ownIdentity(worker)).toBeNull();
    let sessionId: string;
    stack().stripe.setDelivery({ copies: 3, shuffle: true });
    try {
      const first = await tryCheck(worker, 'document_unverified');
      expect(await ownIdentity(worker)).toEqual({ status: 'document_failed', verifiedAt: null });
      // A new try reuses the session Stripe keeps waiting, and shows the next result as new even when it fails again.
      const second = await tryCheck(worker, 'selfie_mismatch');
      expect(second.sessionId).toBe(first.sessionId);
      sessionId = first.sessionId;
      expect(second.clientSecret).not.toBe(first.clientSecret);
      expect((await ownIdentity(worker))?.status).toBe('selfie_failed');
      await tryCheck(worker, 'consent_declined');
      expect((await ownIdentity(worker))?.status).toBe('not_completed');
      await tryCheck(worker, 'verified');
    } finally {
      stack().stripe.setDelivery({ copies: 1, shuffle: false });
    }
    const identity = await ownIdentity(worker);
    expect(identity?.status).toBe('verified');
    expect(Date.parse(identity?.verifiedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await call<PublicProfile>(poster, 'GET', `/profiles/${worker.userId}`)).body.identityVerified).toBe(true);

    const notices = await identityNotices(worker);
    expect(notices.map((notice) => [notice.type, notice.message]).reverse()).toEqual([
      ['identity_needs_retry', IDENTITY_STATUS_TEXTS.document_failed],
      ['identity_needs_retry', IDENTITY_STATUS_TEXTS.selfie_failed],
      ['identity_needs_retry', IDENTITY_STATUS_TEXTS.not_completed],
      ['identity_verified', MSG.identity.verifiedMessage],
    ]);

    // Verified is the end of it: no second check, and a replay of the session's events changes nothing.
    expect((await call<{ error: string }>(worker, 'POST', '/me/identity-check')).body.error).toBe(MSG.identity.alreadyVerified);
    for (const type of ['processing', 'requires_input', 'verified']) await replay(sessionId, type);
    expect((await ownIdentity(worker))?.status).toBe('verified');
    expect(await identityNotices(worker)).toHaveLength(4);
  });

  it('stores only the status, when it was verified and the session, and the user cannot write them', async () => {
    const worker = await verifiedWorker();
    const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }));
    const identityFields = Object.keys(Item ?? {}).filter((field) => /identity|verif|document|selfie|birth|dob|id_?number/i.test(field));
    expect(identityFields.sort()).toEqual(['identityCheckedAt', 'identitySessionId', 'identityStatus', 'identityVerifiedAt']);
    expect(Item?.identitySessionId).toMatch(/^vs_/);

    const forged = await call<{ error: string }>(worker, 'PATCH', '/me', { identityStatus: 'verified' });
    expect(forged.status).toBe(403);
    // The admin account needs no check.
    expect((await call<{ error: string }>(admin, 'POST', '/me/identity-check')).body.error).toBe(MSG.identity.adminAccount);
  });

  it('refuses an unverified worker on a job for ID-verified workers only, and accepts a verified one whose badge the poster sees', async () => {
    const job = await postOpenJob(stack(), poster, { title: 'Feed the cat while away', verifiedWorkersOnly: true });
    expect(job.verifiedWorkersOnly).toBe(true);
    const [unverified, verified] = await Promise.all([createReadyUser(stack(), 'worker'), verifiedWorker()]);

    const refused = await call<{ error: string }>(unverified, 'POST', `/jobs/${job.id}/applications`, {});
    expect(refused).toEqual({ status: 403, body: { error: MSG.identity.applyRefused } });
    expect((await call(verified, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);

    const applicants = (await call<{ items: ApplicantView[] }>(poster, 'GET', `/jobs/${job.id}/applications`)).body.items;
    expect(applicants.map(({ worker }) => [worker.id, worker.identityVerified])).toEqual([[verified.userId, true]]);
    // The grid marks the job.
    await settle(stack());
    const card = (await api<Page<{ id: string; verifiedWorkersOnly: boolean }>>(stack(), 'GET', '/jobs?limit=50')).body.items.find((item) => item.id === job.id);
    expect(card?.verifiedWorkersOnly).toBe(true);
  });

  it('an application racing the revocation of its worker: either the application went first, or it is refused with the reason', async () => {
    const worker = await verifiedWorker();
    const job = await postOpenJob(stack(), otherPoster, { title: 'Walk the dog at noon', verifiedWorkersOnly: true });
    const [applied, revoked] = await Promise.all([
      call<{ error?: string }>(worker, 'POST', `/jobs/${job.id}/applications`, {}),
      call(admin, 'POST', `/admin/users/${worker.userId}/identity-revocation`, { reason: 'Documents reported as stolen' }),
    ]);
    expect(revoked.status).toBe(200);
    expect([201, 403]).toContain(applied.status);
    if (applied.status === 403) expect(applied.body.error).toBe(MSG.identity.applyRefused);
    // After the revocation, the next job refuses them.
    const next = await postOpenJob(stack(), otherPoster, { title: 'Water the plants', verifiedWorkersOnly: true });
    expect((await call<{ error: string }>(worker, 'POST', `/jobs/${next.id}/applications`, {})).body.error).toBe(MSG.identity.applyRefused);
  });

  it('an application racing its own verification: refused with the reason while unverified, accepted once the badge is in', async () => {
    const worker = await createReadyUser(stack(), 'worker');
    const job = await postOpenJob(stack(), poster, { title: 'Let the plumber in', verifiedWorkersOnly: true });
    const started = await call<IdentityCheckStart>(worker, 'POST', '/me/identity-check');
    const [applied] = await Promise.all([
      call<{ error?: string }>(worker, 'POST', `/jobs/${job.id}/applications`, {}),
      answerVerificationPage(stack().urls.stripe, started.body, 'verified'),
    ]);
    await settle(stack());
    expect((await ownIdentity(worker))?.status).toBe('verified');
    if (applied.status === 403) {
      expect(applied.body.error).toBe(MSG.identity.applyRefused);
      expect((await call(worker, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);
    } else {
      expect(applied.status).toBe(201);
    }
  });

  it("the admin's revocation removes the badge everywhere, records why, tells the user, and lets them verify again", async () => {
    const worker = await verifiedWorker();
    const job = await postOpenJob(stack(), poster, { title: 'Assemble a bookshelf' });
    expect((await call(worker, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);

    const verifiedOnly = async (query: string) =>
      (await call<Page<AdminUserSummary>>(admin, 'GET', `/admin/users?role=worker&verification=${query}`)).body.items.some((user) => user.id === worker.userId);
    expect([await verifiedOnly('verified'), await verifiedOnly('unverified')]).toEqual([true, false]);

    const revoked = await call<AdminUserSummary>(admin, 'POST', `/admin/users/${worker.userId}/identity-revocation`, { reason: 'Photo did not match in person' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.identityVerified).toBe(false);
    const again = await call<{ error: string }>(admin, 'POST', `/admin/users/${worker.userId}/identity-revocation`, { reason: 'Twice' });
    expect(again).toEqual({ status: 409, body: { error: MSG.identity.notVerified } });

    expect((await call<PublicProfile>(poster, 'GET', `/profiles/${worker.userId}`)).body.identityVerified).toBe(false);
    const applicants = (await call<{ items: ApplicantView[] }>(poster, 'GET', `/jobs/${job.id}/applications`)).body.items;
    expect(applicants.find(({ worker: applicant }) => applicant.id === worker.userId)?.worker.identityVerified).toBe(false);
    const detail = (await call<AdminUserDetail>(admin, 'GET', `/admin/users/${worker.userId}`)).body;
    expect(detail.user.identity).toEqual({ status: 'revoked', verifiedAt: null });
    expect(detail.auditTrail.map((entry) => [entry.actionType, entry.reason])).toContainEqual(['revoke_identity', 'Photo did not match in person']);
    expect([await verifiedOnly('verified'), await verifiedOnly('unverified')]).toEqual([false, true]);
    expect((await identityNotices(worker))[0]?.title).toBe(MSG.identity.revokedTitle);

    // The old session's verified event, delivered again, does not bring the badge back.
    const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }));
    const oldSession = String(Item?.identitySessionId);
    await replay(oldSession, 'verified');
    expect((await ownIdentity(worker))?.status).toBe('revoked');
    // They may verify again, with a new session.
    const retry = await tryCheck(worker, 'verified');
    expect(retry.sessionId).not.toBe(oldSession);
    expect((await ownIdentity(worker))?.status).toBe('verified');
  });

  it("deletion redacts every session of the user at Stripe and leaves no trace of the check on the tombstone; the export held it before", async () => {
    const worker = await verifiedWorker();
    const exported = (await call<{ profile: Record<string, unknown> }>(worker, 'GET', '/me/export')).body;
    expect(exported.profile.identityStatus).toBe('verified');
    expect(exported.profile.identitySessionId).toMatch(/^vs_/);

    expect((await call(worker, 'POST', '/me/deletion', { password: worker.password })).status).toBe(200);
    const sessions = await stripeOf(stack()).identity.verificationSessions.list({ client_reference_id: worker.userId });
    expect(sessions.data.length).toBeGreaterThan(0);
    expect(sessions.data.map((session) => session.redaction?.status)).toEqual(sessions.data.map(() => 'redacted'));
    const { Item } = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }));
    expect(Object.keys(Item ?? {}).filter((field) => field.startsWith('identity'))).toEqual([]);
  });
});
