import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  paginateListSchedules,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { SCHEDULE_RETRY_POLICY } from '../routes.js';
import { inBatches } from './concurrency.js';
import { env } from './env.js';

const scheduler = new SchedulerClient({});

/** EventBridge Scheduler's `at()` expression: UTC, to the second, without a zone suffix. */
export const atExpression = (time: Date) => `at(${time.toISOString().slice(0, 19)})`;

/** The time an `at()` expression names, read as UTC (what atExpression writes); undefined for any other expression. */
export function atExpressionTime(expression: string | undefined): number | undefined {
  const match = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression ?? '');
  return match ? Date.parse(`${match[1]}Z`) : undefined;
}

/**
 * A one-time schedule in the auto-release group that invokes the auto-release function with
 * `input` at `time`, retried and dead-lettered as every schedule, and is deleted by the scheduler once it ran. Creating one that exists
 * already (a retried event) is not an error.
 */
export async function createReleaseSchedule(name: string, time: Date, input: unknown): Promise<void> {
  try {
    await scheduler.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: env('autoReleaseScheduleGroup'),
        ScheduleExpression: atExpression(time),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: env('autoReleaseTargetArn'),
          RoleArn: env('autoReleaseSchedulerRoleArn'),
          Input: JSON.stringify(input),
          // What Scheduler could not deliver after its retries waits there for `npm run redrive -- autoRelease`.
          DeadLetterConfig: { Arn: env('autoReleaseDeadLetterQueueArn') },
          RetryPolicy: { MaximumRetryAttempts: SCHEDULE_RETRY_POLICY.maximumRetryAttempts, MaximumEventAgeInSeconds: SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds },
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

/** Deletes a schedule of the auto-release group; one already gone (fired, or deleted before) is fine. */
export async function deleteReleaseSchedule(name: string): Promise<void> {
  try {
    await scheduler.send(new DeleteScheduleCommand({ Name: name, GroupName: env('autoReleaseScheduleGroup') }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}

/**
 * A moved schedule runs this long from now at the earliest: Scheduler runs a one-time schedule
 * within the minute of its time, and one whose time passes while it is moved must still run.
 */
const MOVED_SCHEDULE_LEAD_MS = 60_000;
/** Schedules moved at once: well under Scheduler's default rate of CreateSchedule calls. */
const MOVES_AT_ONCE = 10;

/**
 * Moves every schedule of the auto-release group a deployment older than 28 Nov 2026 made (its
 * name fixed by the construct's path) into today's group, with today's target, role, dead-letter
 * queue and retry policy, its name, time and input kept; then deletes that group, and with it
 * the schedules left there, which could no longer run (the scheduler role trusts today's group
 * only). Running it again moves nothing: the group is gone, and a schedule created twice is one.
 * Answers how many schedules it moved.
 */
export async function movePreviousReleaseSchedules(): Promise<number> {
  const previousGroup = env('previousAutoReleaseScheduleGroup');
  try {
    await scheduler.send(new GetScheduleGroupCommand({ Name: previousGroup }));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return 0;
    throw error;
  }
  const names: string[] = [];
  for await (const page of paginateListSchedules({ client: scheduler }, { GroupName: previousGroup })) {
    names.push(...(page.Schedules ?? []).flatMap((schedule) => (schedule.Name ? [schedule.Name] : [])));
  }
  await inBatches(names, MOVES_AT_ONCE, async (name) => {
    const schedule = await scheduler.send(new GetScheduleCommand({ Name: name, GroupName: previousGroup }));
    const due = atExpressionTime(schedule.ScheduleExpression);
    if (due === undefined) throw new Error(`${previousGroup}/${name}: not a one-time schedule's at() expression: ${schedule.ScheduleExpression}`);
    const time = Math.max(due, Date.now() + MOVED_SCHEDULE_LEAD_MS);
    await createReleaseSchedule(name, new Date(time), JSON.parse(schedule.Target?.Input ?? '{}'));
  });
  await scheduler.send(new DeleteScheduleGroupCommand({ Name: previousGroup }));
  return names.length;
}
