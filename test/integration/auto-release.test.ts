import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  GetScheduleGroupCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { AppNotification, JobDetail, JobSummary } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import type { AutoReleaseInput } from '../../functions/money/auto-release.js';
import type { ReleaseScheduleMoveResult } from '../../functions/money/deploy/release-schedule-move.js';
import { atExpression } from '../../functions/lib/scheduler.js';
import { DEPLOY_FUNCTIONS, ENV, SCHEDULE_TARGETS } from '../../functions/routes.js';
import { invoke } from '../../infra/local/lambda-runtime.js';
import { scheduleTargetName } from '../../infra/local/scheduler.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, type TestUser } from '../support/local-stack.js';
import { settle, stripeOf } from '../support/payments.js';
import { useLocalStack } from '../support/local-stack.js';

/** Short enough to watch, long enough that a decline or a dispute comes before it on a busy machine. */
const AUTO_RELEASE_SECONDS = 10;
/** A test that waits out the delay: the delay itself, plus the first invocations' cold starts (each function's own worker) on a loaded machine. */
const WAITS_OUT_THE_DELAY_MS = 90_000;

describe('auto-release: a completed job is paid after the delay, once, unless declined or disputed', () => {
  const stack = useLocalStack({ autoReleaseSeconds: AUTO_RELEASE_SECONDS });

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const jobOf = async (job: { id: string }, user: TestUser) => (await call<JobDetail>(user, 'GET', `/jobs/${job.id}`)).body;
  const notifications = async (user: TestUser) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items;
  const transfersOf = async (job: { id: string }) => (await stripeOf(stack()).transfers.list({ limit: 100 })).data.filter((transfer) => transfer.metadata.jobId === job.id);
  /** The job's release and reminder schedules (a release leaves the publication of its reviews scheduled: reviews.test.ts). */
  const isReleaseScheduleOf = (job: { id: string }) => (schedule: { Name: string }) => schedule.Name.endsWith(job.id) && !schedule.Name.startsWith('reviews-');
  const schedulesOf = (job: { id: string }) => stack().scheduler.schedules().filter(isReleaseScheduleOf(job));
  /** The same, as created: on a loaded machine the first reminder may have run before the test looks. */
  const createdSchedulesOf = (job: { id: string }) => stack().scheduler.created().filter(isReleaseScheduleOf(job));
  /** Waits past the job's release time, until every schedule that came due has run and its effects settled. */
  const passRelease = async (releaseAt: string) => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(releaseAt) - Date.now()) + 1000));
    await stack().scheduler.idle();
    await settle(stack());
  };

  /** A job its worker marked completed, with the parties. */
  async function completedJob(title: string) {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title });
    await call(worker, 'POST', `/jobs/${job.id}/applications`, {});
    expect((await call<JobSummary>(poster, 'POST', `/jobs/${job.id}/applications/${worker.userId}/accept`)).status).toBe(200);
    const completedAt = Date.now();
    expect((await call<JobSummary>(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    await settle(stack());
    return { poster, worker, job, completedAt };
  }

  it('schedules the release at completion, shows both sides the time, reminds the poster, and releases once with both notified', async () => {
    const { poster, worker, job, completedAt } = await completedJob('Rake the leaves');
    const [posterView, workerView] = [await jobOf(job, poster), await jobOf(job, worker)];
    expect(posterView.status).toBe('completed');
    expect(posterView.autoReleaseAt).toBeDefined();
    expect(workerView.autoReleaseAt).toBe(posterView.autoReleaseAt);
    const releaseAt = posterView.autoReleaseAt!;
    expect(Date.parse(releaseAt) - completedAt).toBeGreaterThanOrEqual(AUTO_RELEASE_SECONDS * 1000 - 1000);
    // The release and the two reminders, one-time schedules deleted once they ran.
    const schedules = createdSchedulesOf(job);
    expect(schedules.map((schedule) => schedule.Name).sort()).toEqual([`release-${job.id}`, `remind0-${job.id}`, `remind1-${job.id}`]);
    const release = schedules.find((schedule) => schedule.Name === `release-${job.id}`)!;
    expect(release).toMatchObject({ ScheduleExpression: `at(${releaseAt.slice(0, 19)})`, ActionAfterCompletion: 'DELETE', GroupName: 'oddjobs-local-auto-release' });
    expect(JSON.parse(release.Target.Input!)).toEqual({ action: 'release', jobId: job.id, releaseAt });
    // Someone who is not a party does not see it.
    const stranger = await createUser(stack(), { role: 'worker' });
    expect((await jobOf(job, stranger)).autoReleaseAt).toBeUndefined();

    await passRelease(releaseAt);
    const paid = await jobOf(job, poster);
    expect(paid.status).toBe('paid');
    expect(paid.autoReleaseAt).toBeUndefined();
    expect(await transfersOf(job)).toHaveLength(1);
    expect(schedulesOf(job)).toEqual([]);
    const posterNotes = await notifications(poster);
    expect(posterNotes.filter((note) => note.jobId === job.id && note.title === MSG.payments.autoReleaseReminderTitle)).toHaveLength(2);
    expect(posterNotes.filter((note) => note.jobId === job.id && note.type === 'payment_released')).toMatchObject([
      { title: MSG.payments.autoReleasedTitle, message: MSG.payments.autoReleasedToPoster('60.00', 'Rake the leaves') },
    ]);
    expect((await notifications(worker)).filter((note) => note.jobId === job.id && note.type === 'payment_released')).toMatchObject([
      { title: MSG.payments.autoReleasedTitle, message: MSG.payments.autoReleasedToWorker('60.00', 'Rake the leaves') },
    ]);
  }, WAITS_OUT_THE_DELAY_MS);

  it('is cancelled by a dispute: the schedules are deleted and nothing is released after the delay', async () => {
    const { poster, worker, job } = await completedJob('Fix the gate');
    const { autoReleaseAt } = await jobOf(job, poster);
    expect(createdSchedulesOf(job)).toHaveLength(3);
    expect(schedulesOf(job).map((schedule) => schedule.Name)).toContain(`release-${job.id}`);
    expect((await call(worker, 'POST', `/jobs/${job.id}/dispute`, { type: 'payment', description: 'Please release, the gate is fixed.' })).status).toBe(201);
    await settle(stack());
    expect(schedulesOf(job)).toEqual([]);
    expect((await jobOf(job, worker)).autoReleaseAt).toBeUndefined();

    await passRelease(autoReleaseAt!);
    expect((await jobOf(job, poster)).status).toBe('completed');
    expect(await transfersOf(job)).toEqual([]);
  }, WAITS_OUT_THE_DELAY_MS);

  it('is cancelled by declining the completion; a schedule of the declined completion that fires after the next completion does nothing', async () => {
    const { poster, worker, job } = await completedJob('Wash the windows');
    const first = (await jobOf(job, poster)).autoReleaseAt!;
    expect((await call(poster, 'POST', `/jobs/${job.id}/decline-completion`, { reason: 'Two windows left' })).status).toBe(200);
    await settle(stack());
    expect(schedulesOf(job)).toEqual([]);
    expect((await jobOf(job, worker)).autoReleaseAt).toBeUndefined();

    // Completed again: a release of its own, later than the first.
    expect((await call<JobSummary>(worker, 'POST', `/jobs/${job.id}/complete`)).status).toBe(200);
    await settle(stack());
    const second = (await jobOf(job, poster)).autoReleaseAt!;
    expect(second > first).toBe(true);
    // The first completion's release, fired anyway (its deletion late or lost), releases nothing.
    await invoke(scheduleTargetName('autoRelease'), SCHEDULE_TARGETS.autoRelease, { action: 'release', jobId: job.id, releaseAt: first } satisfies AutoReleaseInput);
    expect((await jobOf(job, poster)).status).toBe('completed');
    expect(await transfersOf(job)).toEqual([]);
  });

  it("makes one transfer when the auto-release races the poster's and the admin's release", async () => {
    const admin = await createUser(stack(), { role: 'admin' });
    const { poster, worker, job } = await completedJob('Move the couch');
    const { autoReleaseAt } = await jobOf(job, poster);
    const input: AutoReleaseInput = { action: 'release', jobId: job.id, releaseAt: autoReleaseAt! };
    const results = await Promise.all([
      invoke(scheduleTargetName('autoRelease'), SCHEDULE_TARGETS.autoRelease, input),
      invoke(scheduleTargetName('autoRelease'), SCHEDULE_TARGETS.autoRelease, input),
      call<JobSummary>(poster, 'POST', `/jobs/${job.id}/release-payment`),
      call<JobSummary>(admin, 'POST', `/jobs/${job.id}/release-payment`, { reason: 'The poster asked us to pay the worker' }),
    ]);
    expect(results.slice(2).map((result) => (result as { status: number }).status)).toEqual([200, 200]);
    await settle(stack());
    expect(await transfersOf(job)).toHaveLength(1);
    expect((await jobOf(job, poster)).status).toBe('paid');
    expect((await notifications(worker)).filter((note) => note.jobId === job.id && note.type === 'payment_released')).toHaveLength(1);
    expect(schedulesOf(job)).toEqual([]);
  });

  it("moves on the upgrade the release a deployment older than 28 Nov 2026 left in its own group, where it could never run, into today's group, where it pays the job; and deletes that group", async () => {
    const { poster, job } = await completedJob('Clear the shed');
    const client = new SchedulerClient({ endpoint: stack().urls.scheduler, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const previousGroup = process.env[ENV.previousAutoReleaseScheduleGroup]!;
    /** The custom resource's function, run as Lambda runs it for the deploy: its own environment and capabilities. */
    const move = async () =>
      (await stack().functions.invoke('releaseScheduleMove', DEPLOY_FUNCTIONS.releaseScheduleMove, {
        RequestType: 'Create',
        ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:provider',
        ResponseURL: 'https://example.com',
        StackId: 'stack',
        RequestId: 'request',
        LogicalResourceId: 'PreviousGroupMoved',
        ResourceType: 'Custom::ReleaseScheduleMove',
        ResourceProperties: { ServiceToken: 'provider', PreviousGroup: previousGroup },
      } as CloudFormationCustomResourceEvent)) as ReleaseScheduleMoveResult;

    // The job's schedules as an older deployment kept them: its release alone, an hour ahead (so
    // nothing runs before the test runs it), in that deployment's group, with no dead-letter queue.
    const today = schedulesOf(job);
    const release = today.find((schedule) => schedule.Name === `release-${job.id}`)!;
    await Promise.all(
      today.map((schedule) =>
        client.send(new DeleteScheduleCommand({ Name: schedule.Name, GroupName: schedule.GroupName })).catch((error: unknown) => {
          if (!(error instanceof ResourceNotFoundException)) throw error;
        }),
      ),
    );
    await stack().scheduler.idle();
    expect((await jobOf(job, poster)).status).toBe('completed');
    const later = atExpression(new Date(Date.now() + 3_600_000));
    const olderTarget = { Arn: release.Target.Arn, RoleArn: release.Target.RoleArn, Input: release.Target.Input };
    await client.send(new CreateScheduleGroupCommand({ Name: previousGroup }));
    await client.send(
      new CreateScheduleCommand({
        Name: release.Name,
        GroupName: previousGroup,
        ScheduleExpression: later,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: olderTarget,
      }),
    );
    // There it can never run: the scheduler role trusts today's group only, and nothing keeps the refused run.
    await stack().scheduler.run(release.Name, previousGroup, olderTarget);
    expect(stack().scheduler.refusals().filter((refusal) => refusal.schedule === release.Name)).toMatchObject([{ group: previousGroup, outcome: 'dropped' }]);
    expect((await jobOf(job, poster)).status).toBe('completed');

    expect((await move()).Data).toEqual({ Moved: '1' });
    // In today's group, at its time with its input, and today's dead-letter queue and retries.
    expect(schedulesOf(job)).toEqual([expect.objectContaining({ Name: release.Name, GroupName: release.GroupName, ScheduleExpression: later, Target: release.Target })]);
    await expect(client.send(new GetScheduleGroupCommand({ Name: previousGroup }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    // A later deploy finds nothing left to move.
    expect((await move()).Data).toEqual({ Moved: '0' });

    // Run now rather than in an hour: the release pays the job, once.
    const [moved] = schedulesOf(job);
    await stack().scheduler.run(moved!.Name, moved!.GroupName, moved!.Target);
    await settle(stack());
    expect((await jobOf(job, poster)).status).toBe('paid');
    expect(await transfersOf(job)).toHaveLength(1);
    expect(stack().scheduler.refusals().filter((refusal) => refusal.schedule === release.Name)).toHaveLength(1);
  });
});
