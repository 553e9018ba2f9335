import { CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, ConflictException } from '@aws-sdk/client-scheduler';
import { SCHEDULE_RETRY_POLICY } from '../routes.js';
import { env } from './env.js';

const scheduler = new SchedulerClient({});

/** EventBridge Scheduler's `at()` expression: UTC, to the second, without a zone suffix. */
export const atExpression = (time: Date) => `at(${time.toISOString().slice(0, 19)})`;

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
