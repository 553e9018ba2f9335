import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppNotification, Dispute, JobDetail, JobSummary } from '../../shared/api.js';
import { jobInvariantProblems, type JobLedger } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import type { AutoReleaseInput } from '../../functions/money/auto-release.js';
import { SCHEDULE_TARGETS } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { invoke } from '../../infra/local/lambda-runtime.js';
import { scheduleTargetName } from '../../infra/local/scheduler.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { settle, stripeOf } from '../support/payments.js';

/**
 * Money as one process (issue 34): the combinations of money actions that paid a job twice or
 * stranded its money, each tried through the API as a new user would, with other jobs' payments
 * on the platform's balance (so a transfer the job no longer funds would still go through).
 */
// Each test walks two or three jobs through several users' steps: minutes on a loaded machine's first, cold functions.
describe('money as one process: no job pays out more than it took in, whoever acts', { timeout: 180_000 }, () => {
  const stack = useLocalStack({ autoReleaseSeconds: 600 });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const jobOf = async (job: { id: string }, user: TestUser) => (await call<JobDetail>(user, 'GET', `/jobs/${job.id}`)).body;
  const transfersOf = async (job: { id: string }) => (await stripeOf(stack()).transfers.list({ transfer_group: job.id, limit: 100 })).data;
  const refundedOf = async (job: JobSummary) => {
    const intent = await stripeOf(stack()).paymentIntents.retrieve(await intentOf(job), { expand: ['latest_charge'] });
    return (intent.latest_charge as { amount_refunded: number }).amount_refunded;
  };
  const intentOf = async (job: { id: string }) => (await ledgerOf(job)).movements.find((move) => move.kind === 'charge')!.stripe!.id;
  const ledgerOf = async (job: { id: string }) => (await call<JobLedger>(admin, 'GET', `/admin/jobs/${job.id}/ledger`)).body;
  const notices = async (user: TestUser, job: { id: string }) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items.filter((note) => note.jobId === job.id);
  const adminRefund = async (job: JobSummary, body: object) => call<{ refunded: boolean }>(admin, 'POST', `/admin/payments/${await intentOf(job)}/refund`, body);
  /** The worker's payment account as our copy of it says (Stripe asked for more details, or they were given). */
  const setAccountStatus = (worker: TestUser, status: 'pending' | 'complete') =>
    tableClient(stack()).send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId), UpdateExpression: 'SET paymentAccount.#status = :status', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': status } }),
    );
  const stripeAccountOf = async (user: TestUser) => (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(user.userId) }))).Item?.stripeAccountId as string;
  const fireAutoRelease = async (job: { id: string }, releaseAt: string) => {
    await invoke(scheduleTargetName('autoRelease'), SCHEDULE_TARGETS.autoRelease, { action: 'release', jobId: job.id, releaseAt } satisfies AutoReleaseInput);
    await settle(stack());
  };

  /** What the ledger and Stripe say of a job: balanced, escrow never negative, no more out than in. */
  async function expectMoneyWhole(job: { id: string }) {
    const ledger = await ledgerOf(job);
    expect(jobInvariantProblems(job.id, ledger.movements)).toEqual([]);
    expect(Object.values(ledger.balances).reduce((sum, balance) => sum + balance, 0)).toBe(0);
    const transferred = (await transfersOf(job)).reduce((sum, transfer) => sum + transfer.amount - transfer.amount_reversed, 0);
    const intent = await stripeOf(stack()).paymentIntents.retrieve(await intentOf(job), { expand: ['latest_charge'] });
    const charge = intent.latest_charge as { amount: number; amount_refunded: number };
    expect(transferred + charge.amount_refunded).toBeLessThanOrEqual(charge.amount);
    return ledger;
  }

  /** A job through to completion by its worker. */
  async function jobAt(stage: 'open' | 'assigned' | 'completed', title: string) {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title });
    if (stage !== 'open') {
      await call(worker, 'POST', `/jobs/${job.id}/applications`, {});
      expect((await call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`)).status).toBe(200);
    }
    if (stage === 'completed') expect((await call(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    await settle(stack());
    return { poster, worker, job };
  }

  it("refuses every release after the admin refunded a completed job's payment: the poster's, the admin's and the auto-release", async () => {
    const { poster, worker, job } = await jobAt('completed', 'Refunded, then released?');
    // Another job's payment sits on the platform's balance, as on any running marketplace.
    await jobAt('open', 'Someone else’s money');
    const releaseAt = (await jobOf(job, poster)).autoReleaseAt!;
    expect((await adminRefund(job, { reason: 'The work was never done' })).body).toEqual({ refunded: true });
    await settle(stack());
    expect(await jobOf(job, poster)).toMatchObject({ status: 'cancelled', moneyState: 'refunded', refundReason: 'The work was never done' });
    expect((await jobOf(job, poster)).autoReleaseAt).toBeUndefined();

    expect(await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).toMatchObject({ status: 409, body: { error: MSG.payments.alreadyRefundedJob } });
    expect(await call(admin, 'POST', `/jobs/${job.id}/release-payment`, { reason: 'Pay the worker' })).toMatchObject({ status: 409, body: { error: MSG.payments.alreadyRefundedJob } });
    await fireAutoRelease(job, releaseAt);
    expect(await transfersOf(job)).toEqual([]);
    expect((await jobOf(job, worker)).status).toBe('cancelled');
    expect(await refundedOf(job)).toBe(job.postedAmount);
    // Both parties were told, with the reason.
    for (const user of [poster, worker]) expect((await notices(user, job)).map((note) => note.title)).toContain(MSG.payments.refundedTitle);
    const ledger = await expectMoneyWhole(job);
    expect(ledger.position).toMatchObject({ moneyIn: job.postedAmount, moneyOut: job.postedAmount, escrow: 0 });
  });

  it("cancels an open job whose payment the admin refunded: it can no longer be taken, done or paid", async () => {
    const { poster, worker, job } = await jobAt('open', 'Refunded while open');
    expect((await adminRefund(job, { reason: 'Duplicate listing' })).status).toBe(200);
    await settle(stack());
    expect(await jobOf(job, poster)).toMatchObject({ status: 'cancelled', moneyState: 'refunded' });
    expect((await call(worker, 'POST', `/jobs/${job.id}/applications`, {})).status).toBeGreaterThanOrEqual(400);
    expect((await call(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`)).status).toBeGreaterThanOrEqual(400);
    expect(await transfersOf(job)).toEqual([]);
    await expectMoneyWhole(job);
  });

  it('refuses a refund after release unless the admin confirms reversing the named worker’s transfer', async () => {
    const { poster, worker, job } = await jobAt('completed', 'Released, then refunded?');
    expect((await call<JobSummary>(poster, 'POST', `/jobs/${job.id}/release-payment`)).body.status).toBe('paid');
    await settle(stack());
    expect(await adminRefund(job, { reason: 'Poster complained' })).toMatchObject({ status: 409, body: { error: MSG.payments.refundAfterReleaseNeedsReversal } });
    expect(await adminRefund(job, { reason: 'Poster complained', reverse: { workerId: worker.userId, amount: job.payment - 1 } })).toMatchObject({
      status: 409,
      body: { error: MSG.payments.reversalNotConfirmed },
    });
    expect(await refundedOf(job)).toBe(0);

    expect((await adminRefund(job, { reason: 'Poster complained', reverse: { workerId: worker.userId, amount: job.payment } })).body).toEqual({ refunded: true });
    await settle(stack());
    const [transfer] = await transfersOf(job);
    expect(transfer).toMatchObject({ amount: job.payment, amount_reversed: job.payment, reversed: true });
    expect(await refundedOf(job)).toBe(job.postedAmount);
    expect(await jobOf(job, poster)).toMatchObject({ status: 'cancelled', moneyState: 'reversed' });
    const ledger = await expectMoneyWhole(job);
    expect(ledger.position).toMatchObject({ moneyOut: job.postedAmount, escrow: 0, platformFee: 0 });
    // The same confirmed reversal again reverses nothing more.
    expect((await adminRefund(job, { reason: 'Poster complained', reverse: { workerId: worker.userId, amount: job.payment } })).status).toBe(409);
    expect((await transfersOf(job))[0]!.amount_reversed).toBe(job.payment);
  });

  it("refuses the poster's delete and cancel of a completed job whose money is held; the admin's delete refunds it", async () => {
    const { poster, worker, job } = await jobAt('completed', 'Done, then deleted?');
    expect(await call(poster, 'DELETE', `/jobs/${job.id}`)).toMatchObject({ status: 409, body: { error: MSG.jobs.cannotDeleteInStatus } });
    expect((await call(poster, 'POST', `/jobs/${job.id}/cancel`)).status).toBe(409);
    expect((await call(admin, 'DELETE', `/jobs/${job.id}`, { reason: 'Listing breaks the rules' })).status).toBe(204);
    await settle(stack());
    expect(await jobOf(job, worker)).toMatchObject({ error: MSG.jobs.notFound });
    expect(await refundedOf(job)).toBe(job.postedAmount);
    expect(await transfersOf(job)).toEqual([]);
    const ledger = await expectMoneyWhole(job);
    expect(ledger.position.escrow).toBe(0);
  });

  it('lets the admin cancel an assigned or completed job, refunding its held money', async () => {
    const { poster, job } = await jobAt('completed', 'Cancelled by the admin');
    // The refund is made as the cancel answers (Stripe is up): the job is cancelled and refunded at once.
    expect((await call<JobSummary>(admin, 'POST', `/jobs/${job.id}/cancel`, { reason: 'Fraud report' })).body).toMatchObject({ status: 'cancelled', moneyState: 'refunded' });
    await settle(stack());
    expect(await jobOf(job, poster)).toMatchObject({ status: 'cancelled', moneyState: 'refunded' });
    expect(await refundedOf(job)).toBe(job.postedAmount);
    expect(await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).toMatchObject({ status: 409 });
    await expectMoneyWhole(job);
  });

  it('lets one of a refund and a release racing each other win, never both', async () => {
    const { poster, job } = await jobAt('completed', 'Refund or release');
    const [refund, release] = await Promise.all([adminRefund(job, { reason: 'Raced' }), call<JobSummary>(poster, 'POST', `/jobs/${job.id}/release-payment`)]);
    await settle(stack());
    const outcomes = [refund.status, release.status].sort();
    expect(outcomes).toEqual([200, 409]);
    const transferred = (await transfersOf(job)).length;
    const refunded = await refundedOf(job);
    expect(transferred === 1 ? refunded : transferred).toBe(0);
    await expectMoneyWhole(job);
  });

  describe('disputes decide the money while it is held', () => {
    async function disputed(title: string) {
      const parties = await jobAt('completed', title);
      const filed = await call<Dispute>(parties.worker, 'POST', `/jobs/${parties.job.id}/dispute`, { type: 'payment', description: 'The poster will not release.' });
      expect(filed.status).toBe(201);
      await settle(stack());
      expect((await jobOf(parties.job, parties.poster)).autoReleaseAt).toBeUndefined();
      return { ...parties, dispute: filed.body };
    }
    const resolve = (dispute: Dispute, body: object) => call<Dispute>(admin, 'POST', `/admin/disputes/${dispute.id}/resolve`, { resolution: 'Decided after reading both sides', ...body });

    it('splits: part to the worker, the rest refunded, both told the amounts', async () => {
      const { poster, worker, job, dispute } = await disputed('Half done');
      const toWorker = 2000;
      expect(await resolve(dispute, { money: { decision: 'split', toWorker: job.payment } })).toMatchObject({ status: 400 });
      const resolved = await resolve(dispute, { money: { decision: 'split', toWorker } });
      expect(resolved.body).toMatchObject({ status: 'resolved', moneyOutcome: { decision: 'split', toWorker, refunded: job.postedAmount - toWorker } });
      await settle(stack());
      expect((await transfersOf(job)).map((transfer) => transfer.amount)).toEqual([toWorker]);
      expect(await refundedOf(job)).toBe(job.postedAmount - toWorker);
      expect(await jobOf(job, worker)).toMatchObject({ status: 'paid', moneyState: 'split', splitToWorker: toWorker });
      const told = MSG.disputes.resolvedSplit(job.title, (toWorker / 100).toFixed(2), ((job.postedAmount - toWorker) / 100).toFixed(2));
      for (const user of [poster, worker]) expect((await notices(user, job)).map((note) => note.message)).toContain(told);
      // The money is decided: no release after it.
      expect((await call(poster, 'POST', `/jobs/${job.id}/release-payment`)).status).toBe(409);
      await expectMoneyWhole(job);
    });

    it('releases or refunds in full', async () => {
      const first = await disputed('Released by the dispute');
      expect((await resolve(first.dispute, { money: { decision: 'release' } })).body.moneyOutcome).toEqual({ decision: 'release', toWorker: first.job.payment, refunded: 0 });
      const second = await disputed('Refunded by the dispute');
      expect((await resolve(second.dispute, { money: { decision: 'refund' } })).body.moneyOutcome).toEqual({ decision: 'refund', toWorker: 0, refunded: second.job.postedAmount });
      await settle(stack());
      expect((await transfersOf(first.job)).map((transfer) => transfer.amount)).toEqual([first.job.payment]);
      expect(await refundedOf(second.job)).toBe(second.job.postedAmount);
      expect(await transfersOf(second.job)).toEqual([]);
      await expectMoneyWhole(first.job);
      await expectMoneyWhole(second.job);
    });

    it("moves the money of one resolution only when two admins resolve at once: the other is refused, each party told once", async () => {
      for (const [first, second] of [
        [{}, { money: { decision: 'refund' } }],
        [{ money: { decision: 'refund' } }, {}],
      ] as const) {
        const { poster, worker, job, dispute } = await disputed('Resolved twice at once');
        const answers = await Promise.all([resolve(dispute, first), resolve(dispute, second)]);
        await settle(stack());
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
        const refundWon = answers['money' in first ? 0 : 1]!.status === 200;
        expect(await refundedOf(job)).toBe(refundWon ? job.postedAmount : 0);
        const stored = (await call<{ items: Dispute[] }>(worker, 'GET', '/me/disputes')).body.items.find((item) => item.id === dispute.id)!;
        expect(stored.moneyOutcome?.decision).toBe(refundWon ? 'refund' : undefined);
        for (const user of [poster, worker]) expect((await notices(user, job)).filter((note) => note.title === MSG.disputes.resolvedTitle)).toHaveLength(1);
        await expectMoneyWhole(job);
      }
    });

    it("pays a split to the dispute's worker who no longer holds the job, cancels it and tells its current worker; a release would pay someone else and is refused", async () => {
      const { poster, worker: former, job } = await jobAt('assigned', 'Reassigned during a dispute');
      const filed = await call<Dispute>(former, 'POST', `/jobs/${job.id}/dispute`, { type: 'payment', description: 'I did half before I was let go.' });
      expect(filed.status).toBe(201);
      expect((await call(poster, 'POST', `/jobs/${job.id}/unassign`)).status).toBe(200);
      const current = await createReadyUser(stack(), 'worker');
      expect((await call(current, 'POST', `/jobs/${job.id}/applications`, {})).status).toBe(201);
      expect((await call(poster, 'POST', `/jobs/${job.id}/applications/${current.userId}/accept`)).status).toBe(200);
      await settle(stack());

      expect(await resolve(filed.body, { money: { decision: 'release' } })).toMatchObject({ status: 409, body: { error: MSG.disputes.releaseToOtherWorker } });
      const resolved = await resolve(filed.body, { money: { decision: 'split', toWorker: 2000 } });
      expect(resolved.body).toMatchObject({ status: 'resolved', moneyOutcome: { decision: 'split', toWorker: 2000 } });
      await settle(stack());
      const [transfer] = await transfersOf(job);
      expect(transfer).toMatchObject({ amount: 2000, destination: (await stripeAccountOf(former)) });
      expect(await jobOf(job, poster)).toMatchObject({ status: 'cancelled', moneyState: 'split', splitToWorker: 2000 });
      expect((await jobOf(job, poster)).workerId).toBeUndefined();
      expect((await notices(current, job)).map((note) => note.message)).toContain(MSG.disputes.splitWithFormerWorkerMessage(job.title));
      const ledger = await expectMoneyWhole(job);
      expect(ledger.movements.find((move) => move.kind === 'transfer')?.to).toBe(`worker:${former.userId}`);
    });

    it('keeps the auto-release off while another dispute on the job is open, and gives it back when the last is resolved', async () => {
      const { poster, job, dispute } = await disputed('Two disputes');
      const second = await call<Dispute>(poster, 'POST', `/jobs/${job.id}/dispute`, { type: 'quality', description: 'The paint is patchy.' });
      expect(second.status).toBe(201);
      expect((await resolve(dispute, {})).status).toBe(200);
      await settle(stack());
      expect((await jobOf(job, poster)).autoReleaseAt).toBeUndefined();
      expect((await resolve(second.body, {})).status).toBe(200);
      await settle(stack());
      expect((await jobOf(job, poster)).autoReleaseAt).toBeDefined();
    });

    it('gives the auto-release back, at least a day ahead, when the resolution decides no money', async () => {
      const { poster, job, dispute } = await disputed('Resolved by talking');
      const resolvedAt = Date.now();
      expect((await resolve(dispute, {})).status).toBe(200);
      await settle(stack());
      const { autoReleaseAt } = await jobOf(job, poster);
      expect(autoReleaseAt).toBeDefined();
      // The local delay (600 s) is shorter than a day: the whole delay from the resolution.
      expect(Date.parse(autoReleaseAt!) - resolvedAt).toBeGreaterThanOrEqual(600_000 - 2000);
      expect(stack().scheduler.schedules().map((schedule) => schedule.Name)).toContain(`release-${job.id}`);
    });
  });

  it('lets the poster pause the auto-release with a reason the worker sees, and resume it', async () => {
    const { poster, worker, job } = await jobAt('completed', 'Paused release');
    const releaseAt = (await jobOf(job, poster)).autoReleaseAt!;
    expect((await call(poster, 'POST', `/jobs/${job.id}/auto-release/pause`, { reason: ' ' })).status).toBe(400);
    expect((await call(worker, 'POST', `/jobs/${job.id}/auto-release/pause`, { reason: 'Mine' })).status).toBe(404);
    const paused = await call<JobDetail>(poster, 'POST', `/jobs/${job.id}/auto-release/pause`, { reason: 'Checking the paint once it dries' });
    expect(paused.body).toMatchObject({ autoReleasePauseReason: 'Checking the paint once it dries' });
    await settle(stack());
    expect(await jobOf(job, worker)).toMatchObject({ autoReleasePauseReason: 'Checking the paint once it dries' });
    expect((await jobOf(job, worker)).autoReleaseAt).toBeUndefined();
    expect(stack().scheduler.schedules().filter((schedule) => schedule.Name === `release-${job.id}`)).toEqual([]);
    expect((await notices(worker, job)).map((note) => note.title)).toContain(MSG.payments.autoReleasePausedTitle);
    // The old schedule, fired anyway, pays nothing while paused.
    await fireAutoRelease(job, releaseAt);
    expect(await transfersOf(job)).toEqual([]);
    expect((await call(poster, 'POST', `/jobs/${job.id}/auto-release/pause`, { reason: 'Again' })).status).toBe(409);

    const resumed = await call<JobDetail>(poster, 'POST', `/jobs/${job.id}/auto-release/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.autoReleasePausedAt).toBeUndefined();
    expect(Date.parse(resumed.body.autoReleaseAt!)).toBeGreaterThanOrEqual(Date.parse(releaseAt));
    await settle(stack());
    expect(stack().scheduler.schedules().map((schedule) => schedule.Name)).toContain(`release-${job.id}`);
    await fireAutoRelease(job, resumed.body.autoReleaseAt!);
    expect((await jobOf(job, worker)).status).toBe('paid');
  });

  it("marks an auto-release the worker's account cannot take, tells both sides, and makes it once the account is ready", async () => {
    const { poster, worker, job } = await jobAt('completed', 'Blocked release');
    const releaseAt = (await jobOf(job, poster)).autoReleaseAt!;
    // The worker's account stops being able to take transfers (Stripe asked for more details).
    await tableClient(stack()).send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId), UpdateExpression: 'SET paymentAccount.#status = :pending', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':pending': 'pending' } }),
    );
    await fireAutoRelease(job, releaseAt);
    expect(await transfersOf(job)).toEqual([]);
    const blocked = await jobOf(job, worker);
    expect(blocked).toMatchObject({ status: 'completed', autoReleaseBlockedReason: MSG.payments.workerSetupIncomplete });
    expect((await notices(worker, job)).map((note) => note.message)).toContain(MSG.payments.autoReleaseBlockedToWorker(job.title));
    expect((await notices(poster, job)).map((note) => note.message)).toContain(MSG.payments.autoReleaseBlockedToPoster(job.title));
    const adminList = await call<{ items: JobSummary[] }>(admin, 'GET', '/admin/jobs?status=completed');
    expect(adminList.body.items.find((listed) => listed.id === job.id)).toBeDefined();

    // The account is ready again (the worker finished Stripe's questions): the release is made.
    expect((await call(worker, 'POST', '/payments/account/status')).status).toBe(200);
    await settle(stack());
    expect((await jobOf(job, worker)).status).toBe('paid');
    expect((await transfersOf(job)).map((transfer) => transfer.amount)).toEqual([job.payment]);
    await expectMoneyWhole(job);
  });

  it('keeps every guard of a blocked auto-release: paused or declined since, it waits when the account gets ready; completed again, it counts down anew', async () => {
    const blockedJob = async (title: string) => {
      const parties = await jobAt('completed', title);
      const releaseAt = (await jobOf(parties.job, parties.poster)).autoReleaseAt!;
      await setAccountStatus(parties.worker, 'pending');
      await fireAutoRelease(parties.job, releaseAt);
      expect(await jobOf(parties.job, parties.worker)).toMatchObject({ status: 'completed', autoReleaseBlockedReason: MSG.payments.workerSetupIncomplete });
      return parties;
    };
    const paused = await blockedJob('Blocked, then paused');
    expect((await call(paused.poster, 'POST', `/jobs/${paused.job.id}/auto-release/pause`, { reason: 'Checking the work' })).status).toBe(200);
    const declined = await blockedJob('Blocked, then declined');
    expect((await call(declined.poster, 'POST', `/jobs/${declined.job.id}/decline-completion`, { reason: 'Two windows left' })).status).toBe(200);
    expect((await call(declined.worker, 'POST', `/jobs/${declined.job.id}/complete`)).status).toBe(200);
    for (const { worker } of [paused, declined]) {
      await setAccountStatus(worker, 'complete');
      expect((await call(worker, 'POST', '/payments/account/status')).status).toBe(200);
    }
    await settle(stack());
    expect(await transfersOf(paused.job)).toEqual([]);
    expect(await transfersOf(declined.job)).toEqual([]);
    const fresh = await jobOf(declined.job, declined.poster);
    expect(fresh).toMatchObject({ status: 'completed', autoReleaseAt: expect.any(String) });
    expect(fresh.autoReleaseBlockedAt).toBeUndefined();
  });

  it('sends each money notice under its own type, and tells the worker when the admin deletes their job', async () => {
    const { poster, worker, job } = await jobAt('completed', 'Typed notices');
    const releaseAt = (await jobOf(job, poster)).autoReleaseAt!;
    expect((await call(poster, 'POST', `/jobs/${job.id}/auto-release/pause`, { reason: 'Checking the work' })).status).toBe(200);
    expect((await call(poster, 'POST', `/jobs/${job.id}/auto-release/resume`)).status).toBe(200);
    await setAccountStatus(worker, 'pending');
    await fireAutoRelease(job, (await jobOf(job, poster)).autoReleaseAt ?? releaseAt);
    const typeOf = async (user: TestUser, title: string) => (await notices(user, job)).find((note) => note.title === title)?.type;
    expect(await typeOf(worker, MSG.payments.autoReleasePausedTitle)).toBe('payment_paused');
    expect(await typeOf(worker, MSG.payments.autoReleaseResumedTitle)).toBe('payment_resumed');
    expect(await typeOf(worker, MSG.payments.autoReleaseBlockedTitle)).toBe('payment_blocked');
    expect(await typeOf(poster, MSG.payments.autoReleaseBlockedToPosterTitle)).toBe('payment_blocked');

    expect((await call(admin, 'DELETE', `/jobs/${job.id}`, { reason: 'Breaks the rules' })).status).toBe(204);
    await settle(stack());
    const all = (await call<{ items: AppNotification[] }>(worker, 'GET', '/me/notifications')).body.items;
    expect(all.find((note) => note.metadata.jobId === job.id && note.type === 'job_moderated')?.message).toBe(MSG.admin.removedNoticeMessage(job.title, 'Breaks the rules'));
    expect(all.find((note) => note.metadata.jobId === job.id && note.type === 'payment_refunded')?.message).toBe(MSG.payments.refundedMessage(job.title, (job.postedAmount / 100).toFixed(2), 'Breaks the rules'));
  });

  it("answers 'Payment release failed' when Stripe refuses the worker's transfer, holds the money again and lets the auto-release wait", async () => {
    const { poster, worker, job } = await jobAt('completed', 'Refused transfer');
    const releaseAt = (await jobOf(job, poster)).autoReleaseAt!;
    // Stripe took the account's transfers capability away and its account.updated has not come
    // yet: our copy still says ready. (A fresh Express account stands for it: transfers inactive.)
    const restricted = await stripeOf(stack()).accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } });
    await tableClient(stack()).send(
      new UpdateCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId), UpdateExpression: 'SET stripeAccountId = :restricted', ExpressionAttributeValues: { ':restricted': restricted.id } }),
    );

    const release = await call(poster, 'POST', `/jobs/${job.id}/release-payment`);
    expect(release).toMatchObject({ status: 400, body: { error: MSG.payments.releaseRefused } });
    expect(await transfersOf(job)).toEqual([]);
    // Held again, not stuck half-way: the auto-release still runs, and waits for the account.
    await fireAutoRelease(job, releaseAt);
    expect(await jobOf(job, worker)).toMatchObject({ status: 'completed', autoReleaseBlockedReason: MSG.payments.releaseRefused });
    expect(await transfersOf(job)).toEqual([]);
    await expectMoneyWhole(job);
  });

  it('keeps every cent of a released job in the ledger: charge, card fee, transfer and platform fee, escrow emptied', async () => {
    const { poster, job } = await jobAt('completed', 'Where is every cent');
    await call(poster, 'POST', `/jobs/${job.id}/release-payment`);
    await settle(stack());
    const ledger = await expectMoneyWhole(job);
    expect(ledger.movements.map((move) => move.kind).sort()).toEqual(['card_fee', 'charge', 'platform_fee', 'transfer']);
    expect(ledger.position).toMatchObject({ moneyIn: job.postedAmount, moneyOut: job.payment, escrow: 0, platformFee: job.postedAmount - job.payment });
    // Stripe's webhooks confirmed the charge and the transfer.
    expect(ledger.movements.filter((move) => move.stripe).every((move) => move.settledAt)).toBe(true);
  });
});
