import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { atExpression } from '../../functions/lib/scheduler.js';
import { stopFunctions } from '../../infra/local/lambda-runtime.js';
import { serveScheduler, type LocalScheduler } from '../../infra/local/scheduler.js';
import type { RecordedInput } from '../support/fixtures/scheduler-recorder.js';
import { formatCountdown } from '../../web/src/lib/format.js';

/** A target that records what it was invoked with, in `recordTo`. */
const recordDir = mkdtempSync(join(tmpdir(), 'scheduler-recorder-'));
const recordTo = join(recordDir, 'received.jsonl');
const received = () => (existsSync(recordTo) ? readFileSync(recordTo, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as RecordedInput) : []);
const recorder: FunctionDeclaration = { entry: 'test/support/fixtures/scheduler-recorder.ts', capabilities: [] };

describe('the local EventBridge Scheduler, spoken to by @aws-sdk/client-scheduler', () => {
  let scheduler: LocalScheduler;
  let client: SchedulerClient;
  const target = { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:recorder', RoleArn: 'arn:aws:iam::000000000000:role/scheduler' };
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
    scheduler = await serveScheduler({ port: 0, targets: { recorder } });
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

  it('fires a schedule at its time with its input, then deletes it; a deleted one never fires', async () => {
    await create('soon', new Date(Date.now() + 1000), { recordTo, n: 'soon' });
    await create('cancelled', new Date(Date.now() + 1000), { recordTo, n: 'cancelled' });
    await client.send(new DeleteScheduleCommand({ Name: 'cancelled', GroupName: 'jobs' }));
    expect(received()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await scheduler.idle();
    expect(received()).toEqual([{ recordTo, n: 'soon' }]);
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
