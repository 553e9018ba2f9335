import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { jobScope, movementPut } from '../../functions/money/ledger.js';
import type { ReconciliationCheckpoint, ReconciliationResult } from '../../functions/money/reconciliation.js';
import { RECONCILIATION_METRIC, RECURRING_SCHEDULES } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { recurringScheduleName } from '../../infra/local/stack.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, settle, stripeOf } from '../support/payments.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('reconciliation of the ledger with Stripe', () => {
  const stack = useLocalStack();
  const call = <T = unknown>(user: TestUser, method: string, path: string, body?: unknown) => api<T>(stack(), method, path, { token: user.idToken, body });
  const ok = async <T = unknown>(promise: Promise<{ status: number; body: T }>) => {
    const response = await promise;
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  };

  /** The schedule's function, as the daily schedule and `npm run reconcile` invoke it, with no grace for the newest objects. */
  const reconcile = (input: object = {}) =>
    stack().functions.invoke(recurringScheduleName('reconciliation'), RECURRING_SCHEDULES.reconciliation, { graceSeconds: 0, ...input }) as Promise<ReconciliationResult>;

  /** `npm run reconcile` against this stack (its Lambda Invoke API), as a child process: its exit code and what it printed. */
  async function reconcileCommand(): Promise<{ code: number; stdout: string }> {
    const env = { ...process.env, LOCAL_LAMBDA_PORT: new URL(stack().urls.lambda).port };
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'infra/reconcile.ts'], { cwd: REPO_ROOT, env });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  const checkpoint = async () =>
    (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.reconciliationCheckpoint() }))).Item as ReconciliationCheckpoint | undefined;

  const intentOf = async (jobId: string) => String((await stripeOf(stack()).charges.list({ transfer_group: jobId })).data[0]?.payment_intent);

  /** A connected account made directly in Stripe (the dashboard), able to take transfers. */
  async function connectedAccount(): Promise<string> {
    const stripe = stripeOf(stack());
    const account = await stripe.accounts.create({ type: 'express', country: 'US', capabilities: { transfers: { requested: true } } });
    const link = await stripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: 'http://localhost/r', return_url: 'http://localhost/done' });
    await fetch(`${link.url}/complete`, { method: 'POST', redirect: 'manual' });
    return account.id;
  }

  it('finds no difference after jobs are paid, released, refunded while held and refunded after release with the transfer reversed, through the API', async () => {
    const [poster, worker, admin] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker'), createUser(stack(), { role: 'admin' })]);
    const released = await postOpenJob(stack(), poster, { title: 'Paint a shed' });
    await ok(call(worker, 'POST', `/jobs/${released.id}/applications`, { message: 'I can do it' }));
    await ok(call(poster, 'POST', `/jobs/${released.id}/applications/${worker.userId}/accept`));
    await ok(call(worker, 'POST', `/jobs/${released.id}/complete`));
    await ok(call(poster, 'POST', `/jobs/${released.id}/release-payment`));
    const refunded = await postOpenJob(stack(), poster, { title: 'Sweep a porch' });
    await settle(stack());
    await ok(call(admin, 'POST', `/admin/payments/${await intentOf(refunded.id)}/refund`, { reason: 'Posted twice' }));
    await settle(stack());
    const first = await reconcile();
    expect(first.differences).toEqual([]);
    // Both card payments, the transfer and the refund were compared, each with its movement.
    expect(first.stripeObjects).toBe(4);

    const reversed = await postOpenJob(stack(), poster, { title: 'Fix a step', payment: 4000 });
    await ok(call(worker, 'POST', `/jobs/${reversed.id}/applications`, { message: 'On it' }));
    await ok(call(poster, 'POST', `/jobs/${reversed.id}/applications/${worker.userId}/accept`));
    await ok(call(worker, 'POST', `/jobs/${reversed.id}/complete`));
    await ok(call(poster, 'POST', `/jobs/${reversed.id}/release-payment`));
    await settle(stack());
    await ok(call(admin, 'POST', `/admin/payments/${await intentOf(reversed.id)}/refund`, { reason: 'Work was not done', reverse: { workerId: worker.userId, amount: 4000 } }));
    await settle(stack());

    const result = await reconcile();
    expect(result.differences).toEqual([]);
    // From the first run's checkpoint less the margin: all of the above again, and the third job's payment, transfer, reversal and refund.
    expect(result.stripeObjects).toBe(8);
    expect(result.movements).toBeGreaterThanOrEqual(8);
    expect(await checkpoint()).toMatchObject({ differenceCount: 0, checkedThrough: result.checkedThrough });
    const command = await reconcileCommand();
    expect(command, command.stdout).toMatchObject({ code: 0, stdout: expect.stringContaining('the ledger and Stripe agree') });
  }, 240_000);

  it("names the job and amount of a transfer made directly in Stripe with the job's transfer group, until it is resolved, and the command exits non-zero", async () => {
    const poster = await createPoster(stack());
    const job = await postOpenJob(stack(), poster, { title: 'Rake leaves' });
    await settle(stack());
    const transfer = await stripeOf(stack()).transfers.create({ amount: 1234, currency: 'usd', destination: await connectedAccount(), transfer_group: job.id });

    const command = await reconcileCommand();
    expect(command.code, command.stdout).toBe(1);
    expect(command.stdout).toContain(`job ${job.id}: $12.34 — Stripe's transfer ${transfer.id} is not in the ledger`);

    // The next run finds it again: the checkpoint stays before it until the ledger accounts for it.
    // Its count is published as the metric the alarm watches (a log line, as it reaches CloudWatch).
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const again = await reconcile().finally(() => vi.restoreAllMocks());
    const metric = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.includes(RECONCILIATION_METRIC.name))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => (entry._aws as { CloudWatchMetrics?: Array<{ Namespace: string }> } | undefined)?.CloudWatchMetrics?.[0]?.Namespace === RECONCILIATION_METRIC.namespace);
    expect(metric).toMatchObject({ [RECONCILIATION_METRIC.name]: again.differences.length, service: RECONCILIATION_METRIC.service, [RECONCILIATION_METRIC.dimension]: recurringScheduleName('reconciliation') });
    expect(again.differences.length).toBeGreaterThan(0);
    expect(again.differences.filter((difference) => difference.object.id === transfer.id)).toEqual([
      { kind: 'unknown_to_ledger', object: { kind: 'transfer', id: transfer.id }, jobId: job.id, stripeAmount: 1234, at: new Date(transfer.created * 1000).toISOString() },
    ]);
    expect((await checkpoint())?.differences).toContainEqual(expect.objectContaining({ object: { kind: 'transfer', id: transfer.id } }));
    expect(Date.parse((await checkpoint())!.checkedThrough)).toBeLessThanOrEqual(transfer.created * 1000);
  }, 240_000);

  it('reports a movement naming a Stripe object Stripe does not have, and one whose amount differs', async () => {
    const poster = await createPoster(stack());
    const job = await postOpenJob(stack(), poster, { title: 'Clean gutters' });
    await settle(stack());
    const transfer = await stripeOf(stack()).transfers.create({ amount: 2000, currency: 'usd', destination: await connectedAccount(), transfer_group: job.id });
    const scope = jobScope(job.id);
    const movement = (movementId: string, amount: number, id: string) =>
      movementPut({ scope, movementId, kind: 'transfer', from: ledgerAccount.escrow(job.id), to: ledgerAccount.worker('w-test'), amount, stripe: { kind: 'transfer', id } });
    await tableClient(stack()).send(
      new TransactWriteCommand({ TransactItems: [...movement('test-transfer', 1500, transfer.id), ...movement('test-missing', 700, 'tr_missing_at_stripe')] }),
    );

    const ours = (await reconcile({ since: new Date(Date.now() - 600_000).toISOString() })).differences.filter((difference) => difference.jobId === job.id && difference.object.kind === 'transfer');
    expect(ours).toEqual([
      expect.objectContaining({ kind: 'amount_differs', object: { kind: 'transfer', id: transfer.id }, stripeAmount: 2000, ledgerAmount: 1500 }),
      expect.objectContaining({ kind: 'unknown_to_stripe', object: { kind: 'transfer', id: 'tr_missing_at_stripe' }, ledgerAmount: 700 }),
    ]);
  }, 240_000);

  it('names the job (or the worker) of a refund, a payout and a chargeback made straight in Stripe before the app heard of them, and is clean once their webhooks took them in', async () => {
    const [poster, worker] = await Promise.all([createPoster(stack()), createReadyUser(stack(), 'worker')]);
    const held = await postOpenJob(stack(), poster, { title: 'Refunded in the dashboard' });
    const released = await postOpenJob(stack(), poster, { title: 'Charged back after release' });
    await ok(call(worker, 'POST', `/jobs/${released.id}/applications`, {}));
    await ok(call(poster, 'POST', `/jobs/${released.id}/applications/${worker.userId}/accept`));
    await ok(call(worker, 'POST', `/jobs/${released.id}/complete`));
    await ok(call(poster, 'POST', `/jobs/${released.id}/release-payment`));
    await settle(stack());
    const since = new Date(Date.now() - 120_000).toISOString();
    // Other tests of this file left their own differences in the window: this test's are about its jobs and worker.
    const ours = (result: ReconciliationResult) => result.differences.filter((difference) => [held.id, released.id].includes(difference.jobId ?? '') || difference.workerId === worker.userId);
    expect(ours(await reconcile({ since }))).toEqual([]);

    // Stripe's deliveries fail for a while: the app hears of nothing made now.
    const stripe = stripeOf(stack());
    stack().stripe.holdDeliveries();
    const refund = await stripe.refunds.create({ payment_intent: await intentOf(held.id), amount: 1500 });
    const account = (await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId) }))).Item!.stripeAccountId as string;
    const payout = await stripe.payouts.create({ amount: 1000, currency: 'usd', method: 'instant' }, { stripeAccount: account });
    const dispute = stack().stripe.disputeCharge(String((await stripe.paymentIntents.retrieve(await intentOf(released.id))).latest_charge));
    const [withdrawal] = (await stripe.disputes.retrieve(dispute.id)).balance_transactions;

    const unheard = await reconcile({ since });
    const named = (id: string) => unheard.differences.find((difference) => difference.object.id === id);
    expect(named(refund.id)).toMatchObject({ kind: 'unknown_to_ledger', jobId: held.id, stripeAmount: 1500 });
    expect(named(payout.id)).toMatchObject({ kind: 'unknown_to_ledger', workerId: worker.userId, stripeAmount: 1000 });
    expect(named(withdrawal!.id)).toMatchObject({ kind: 'unknown_to_ledger', jobId: released.id, object: { kind: 'dispute_funds', id: withdrawal!.id } });
    const command = await reconcileCommand();
    expect(command.code).toBe(1);
    expect(command.stdout).toContain(`worker ${worker.userId}: $10.00 — Stripe's payout ${payout.id} is not in the ledger`);

    // The webhooks come through: each move is taken in, and the ledger agrees with Stripe again;
    // the chargeback after release is the platform's loss, reported beside.
    stack().stripe.releaseDeliveries();
    await settle(stack());
    const heard = await reconcile({ since });
    expect(ours(heard)).toEqual([]);
    expect(heard.losses.filter((loss) => loss.jobId === released.id)).toEqual([expect.objectContaining({ kind: 'platform_loss', amount: released.postedAmount })]);
  }, 240_000);
});
