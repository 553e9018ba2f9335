import {
  ConflictException,
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  paginateListSchedules,
  ResourceNotFoundException,
  SchedulerClient,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { atExpression } from '../../functions/lib/scheduler.js';
import { stopFunctions } from '../../infra/local/lambda-runtime.js';
import { CREATED_SCHEDULES_KEPT, serveScheduler, type LocalScheduler, type ScheduleTarget } from '../../infra/local/scheduler.js';
import type { MessageAttribute } from '../../infra/local/sqs.js';
import { scheduleGroupArn, schedulerRoleStatements, schedulerTrustStatement, type PolicyStatementJson, type RoleDocuments } from '../../infra/scheduler-roles.js';
import type { RecordedInput } from '../support/fixtures/scheduler-recorder.js';
import { formatCountdown } from '../../web/src/lib/format.js';

/** A target that records what it was invoked with, in `recordTo`. */
const recordDir = mkdtempSync(join(tmpdir(), 'scheduler-recorder-'));
const recordTo = join(recordDir, 'received.jsonl');
const received = () => (existsSync(recordTo) ? readFileSync(recordTo, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as RecordedInput) : []);
const recorder: FunctionDeclaration = { entry: 'test/support/fixtures/scheduler-recorder.ts', capabilities: [] };

const ACCOUNT = '000000000000';
const RECORDER_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:recorder`;
const QUEUE_ARN = `arn:aws:sqs:us-east-1:${ACCOUNT}:recorder-dead-letters`;
const roleArn = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
/** The role the CDK app gives a schedule group (infra/scheduler-roles.ts), for the group `jobs`. */
const jobsScope = { account: ACCOUNT, groupArn: scheduleGroupArn('aws', 'us-east-1', ACCOUNT, 'jobs'), targetArn: RECORDER_ARN, deadLetterQueueArn: QUEUE_ARN };
const asBuilt: RoleDocuments = { trust: [schedulerTrustStatement(jobsScope)], permissions: schedulerRoleStatements(jobsScope) };
/** The trust this repository gave before issue 35: a schedule ARN pattern, which AWS never matches (its source is the group). */
const trustingSchedules: PolicyStatementJson = {
  ...schedulerTrustStatement(jobsScope),
  Condition: { StringEquals: { 'aws:SourceAccount': ACCOUNT }, ArnLike: { 'aws:SourceArn': `arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/jobs/*` } },
};
const ROLES: Record<string, RoleDocuments> = {
  [roleArn('scheduler')]: asBuilt,
  [roleArn('trusting-schedules')]: { ...asBuilt, trust: [trustingSchedules] },
  [roleArn('other-account')]: { ...asBuilt, trust: [schedulerTrustStatement({ ...jobsScope, account: '111111111111' })] },
  [roleArn('no-invoke')]: { ...asBuilt, permissions: schedulerRoleStatements({ ...jobsScope, targetArn: `${RECORDER_ARN}-other` }) },
  [roleArn('no-dead-letters')]: { ...asBuilt, permissions: [{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: `${RECORDER_ARN}-other` }] },
};

describe('the local EventBridge Scheduler, spoken to by @aws-sdk/client-scheduler', () => {
  let scheduler: LocalScheduler;
  let client: SchedulerClient;
  /** What the scheduler and the target's asynchronous invocation sent to the dead-letter queue. */
  const deadLetters: Array<{ body: string; attributes?: Record<string, MessageAttribute> }> = [];
  const target = { Arn: RECORDER_ARN, RoleArn: roleArn('scheduler'), DeadLetterConfig: { Arn: QUEUE_ARN }, RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 } };
  const create = (name: string, at: Date, input: unknown) =>
    client.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: 'jobs',
        ScheduleExpression: atExpression(at),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { ...target, Input: JSON.stringify(input) },
      }),
    );

  beforeAll(async () => {
    scheduler = await serveScheduler({
      port: 0,
      targets: { recorder },
      roles: ROLES,
      groups: ['jobs'],
      sendToQueue: (queueArn, body, attributes) => queueArn === QUEUE_ARN && deadLetters.push({ body, attributes }) > 0,
      onFailure: { recorder: QUEUE_ARN },
    });
    client = new SchedulerClient({ endpoint: scheduler.url, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  });
  afterAll(async () => {
    await scheduler.close();
    await stopFunctions();
    rmSync(recordDir, { recursive: true, force: true });
  });

  it('creates, reads and deletes one-time schedules with the service errors the SDK knows', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const created = await create('later', at, { n: 1 });
    expect(created.ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/jobs/later');
    await expect(create('later', at, { n: 2 })).rejects.toBeInstanceOf(ConflictException);
    const read = await client.send(new GetScheduleCommand({ Name: 'later', GroupName: 'jobs' }));
    expect(read).toMatchObject({ Name: 'later', GroupName: 'jobs', ScheduleExpression: atExpression(at), ActionAfterCompletion: 'DELETE', Target: { ...target, Input: '{"n":1}' } });
    expect(read.CreationDate).toBeInstanceOf(Date);
    // Another group is another namespace.
    await expect(client.send(new GetScheduleCommand({ Name: 'later', GroupName: 'other' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    await client.send(new DeleteScheduleCommand({ Name: 'later', GroupName: 'jobs' }));
    await expect(client.send(new DeleteScheduleCommand({ Name: 'later', GroupName: 'jobs' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it('makes schedules only in a group that exists, lists a group a page at a time, and deletes a group with its schedules', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const inGroup = (name: string, group: string) =>
      client.send(new CreateScheduleCommand({ Name: name, GroupName: group, ScheduleExpression: atExpression(at), ScheduleExpressionTimezone: 'UTC', FlexibleTimeWindow: { Mode: 'OFF' }, Target: target }));
    const missing = inGroup('nowhere', 'missing');
    await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(missing).rejects.toThrow('Schedule group missing does not exist.');
    const { ScheduleGroupArn } = await client.send(new CreateScheduleGroupCommand({ Name: 'older' }));
    expect(ScheduleGroupArn).toBe(scheduleGroupArn('aws', 'us-east-1', ACCOUNT, 'older'));
    await expect(client.send(new CreateScheduleGroupCommand({ Name: 'older' }))).rejects.toBeInstanceOf(ConflictException);
    expect(await client.send(new GetScheduleGroupCommand({ Name: 'older' }))).toMatchObject({ Name: 'older', State: 'ACTIVE', Arn: ScheduleGroupArn });

    const names = Array.from({ length: 5 }, (_, index) => `older-${index}`);
    for (const name of names) await inGroup(name, 'older');
    await inGroup('kept', 'jobs');
    const pages = [];
    for await (const page of paginateListSchedules({ client, pageSize: 2 }, { GroupName: 'older' })) pages.push(page.Schedules!.map((schedule) => [schedule.Name, schedule.GroupName, schedule.Target?.Arn]));
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(names.map((name) => [name, 'older', RECORDER_ARN]));
    await expect(client.send(new DeleteScheduleGroupCommand({ Name: 'default' }))).rejects.toBeInstanceOf(ValidationException);

    await client.send(new DeleteScheduleGroupCommand({ Name: 'older' }));
    await expect(client.send(new GetScheduleGroupCommand({ Name: 'older' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(scheduler.schedules().map((schedule) => `${schedule.GroupName}/${schedule.Name}`)).toEqual(['jobs/kept']);
    await client.send(new DeleteScheduleCommand({ Name: 'kept', GroupName: 'jobs' }));
  });

  it('remembers the last schedules created only, for a long npm run dev', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const before = scheduler.created().length;
    const names = Array.from({ length: CREATED_SCHEDULES_KEPT + 1 - before }, (_, index) => `many-${index}`);
    for (const name of names) await create(name, at, {});
    expect(scheduler.created()).toHaveLength(CREATED_SCHEDULES_KEPT);
    expect(scheduler.created().at(-1)?.Name).toBe(names.at(-1));
    await Promise.all(names.map((name) => client.send(new DeleteScheduleCommand({ Name: name, GroupName: 'jobs' }))));
  });

  it("refuses a dead-letter queue that is not a queue's ARN and a retry policy beyond Scheduler's limits, as CreateSchedule does", async () => {
    const createWith = (name: string, changes: Partial<ScheduleTarget>) =>
      client.send(
        new CreateScheduleCommand({
          Name: name,
          GroupName: 'jobs',
          ScheduleExpression: atExpression(new Date(Date.now() + 3_600_000)),
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { ...target, ...changes },
        }),
      );
    await expect(createWith('bad-queue', { DeadLetterConfig: { Arn: RECORDER_ARN } })).rejects.toThrow(/DeadLetterConfig.Arn/);
    await expect(createWith('bad-retries', { RetryPolicy: { MaximumRetryAttempts: 186 } })).rejects.toThrow(/MaximumRetryAttempts/);
    await expect(createWith('bad-age', { RetryPolicy: { MaximumEventAgeInSeconds: 30 } })).rejects.toThrow(/MaximumEventAgeInSeconds/);
  });

  describe('runs a target only as AWS would', () => {
    const runs = () => received().length;
    const lastRefusal = () => scheduler.refusals().at(-1);
    const attributesOf = (letter: (typeof deadLetters)[number] | undefined) =>
      Object.fromEntries(Object.entries(letter?.attributes ?? {}).map(([name, attribute]) => [name, attribute.StringValue]));

    it('runs it when the role trusts Scheduler for the schedule group and this account, and may invoke the target', async () => {
      const before = runs();
      await scheduler.run('trusted', 'jobs', { ...target, Input: JSON.stringify({ recordTo, n: 'trusted' }) });
      expect(runs()).toBe(before + 1);
    });

    it("refuses a role whose trust names the group's schedules (not the group) or another account, and drops the run: the role that would send its dead letter cannot be assumed", async () => {
      const before = { runs: runs(), letters: deadLetters.length, refusals: scheduler.refusals().length };
      await scheduler.run('schedule-arn', 'jobs', { ...target, RoleArn: roleArn('trusting-schedules'), Input: JSON.stringify({ recordTo, n: 'schedule-arn' }) });
      expect(lastRefusal()).toMatchObject({ schedule: 'schedule-arn', outcome: 'dropped', reason: expect.stringContaining('schedule-group/jobs') });
      await scheduler.run('other-account', 'jobs', { ...target, RoleArn: roleArn('other-account'), Input: JSON.stringify({ recordTo, n: 'other-account' }) });
      expect(lastRefusal()).toMatchObject({ schedule: 'other-account', outcome: 'dropped' });
      // The right role, from another group: its source is that group.
      await scheduler.run('other-group', 'reports', { ...target, Input: JSON.stringify({ recordTo, n: 'other-group' }) });
      expect(lastRefusal()).toMatchObject({ schedule: 'other-group', group: 'reports', outcome: 'dropped' });
      expect(scheduler.refusals().length).toBe(before.refusals + 3);
      expect(runs()).toBe(before.runs);
      expect(deadLetters.length).toBe(before.letters);
    });

    it("sends a run to the dead-letter queue, with Scheduler's attributes, when the target is not a function the role may invoke here", async () => {
      const input = JSON.stringify({ recordTo, n: 'refused' });
      const before = { runs: runs(), letters: deadLetters.length };
      await scheduler.run('no-invoke', 'jobs', { ...target, RoleArn: roleArn('no-invoke'), Input: input });
      expect(deadLetters.at(-1)?.body).toBe(input);
      expect(attributesOf(deadLetters.at(-1))).toMatchObject({
        ERROR_CODE: 'AccessDeniedException',
        SCHEDULE_ARN: `arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/jobs/no-invoke`,
        TARGET_ARN: RECORDER_ARN,
      });
      await scheduler.run('other-region', 'jobs', { ...target, Arn: RECORDER_ARN.replace('us-east-1', 'eu-west-1'), Input: input });
      expect(attributesOf(deadLetters.at(-1))).toMatchObject({ ERROR_CODE: 'ResourceNotFoundException' });
      expect(deadLetters.length).toBe(before.letters + 2);
      // Without sqs:SendMessage on the queue the dead letter is dropped too.
      await scheduler.run('no-dead-letters', 'jobs', { ...target, RoleArn: roleArn('no-dead-letters'), Input: input });
      expect(lastRefusal()).toMatchObject({ schedule: 'no-dead-letters', outcome: 'dropped' });
      expect(deadLetters.length).toBe(before.letters + 2);
      expect(runs()).toBe(before.runs);
    });

    it("puts Lambda's on-failure record in the dead-letter queue once a target that throws has been tried three times", { timeout: 20_000 }, async () => {
      const before = { runs: runs(), letters: deadLetters.length };
      await scheduler.run('throws', 'jobs', { ...target, Input: JSON.stringify({ recordTo, n: 'throws', fail: true }) });
      expect(runs()).toBe(before.runs + 3);
      expect(deadLetters.length).toBe(before.letters + 1);
      expect(JSON.parse(deadLetters.at(-1)!.body)).toMatchObject({
        requestContext: { functionArn: `${RECORDER_ARN}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
        requestPayload: { recordTo, n: 'throws', fail: true },
        responsePayload: { errorMessage: 'recorder failed on throws' },
      });
    });
  });

  it('fires a schedule at its time with its input, then deletes it; a deleted one never fires', async () => {
    await create('soon', new Date(Date.now() + 1000), { recordTo, n: 'soon' });
    await create('cancelled', new Date(Date.now() + 1000), { recordTo, n: 'cancelled' });
    await client.send(new DeleteScheduleCommand({ Name: 'cancelled', GroupName: 'jobs' }));
    const firedEarlier = received().length;
    // Polled, not slept on: on a machine busy with other suites the scheduler's tick may run seconds late.
    await expect.poll(() => received().slice(firedEarlier), { timeout: 30_000 }).toEqual([{ recordTo, n: 'soon' }]);
    // The deleted one was due at the same second: the tick that ran the first would have run it.
    await scheduler.idle();
    expect(received().slice(firedEarlier)).toEqual([{ recordTo, n: 'soon' }]);
    expect(scheduler.schedules()).toEqual([]);
  });
});

describe('formatCountdown', () => {
  it('shows the two largest units left, rounded up to the second', () => {
    expect(formatCountdown(72 * 3_600_000)).toBe('3 days');
    expect(formatCountdown(50 * 3_600_000 + 61_000)).toBe('2 days 2 hours');
    expect(formatCountdown(3_600_000 + 12 * 60_000 + 5000)).toBe('1 hour 12 minutes');
    expect(formatCountdown(44_100)).toBe('45 seconds');
    expect(formatCountdown(-5)).toBe('0 seconds');
  });
});
