import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { SCHEDULE_RETRY_POLICY, type RecurringSchedule as RecurringScheduleDeclaration } from '../../functions/routes.js';
import { schedulerRoleStatements, schedulerTrustCondition } from '../scheduler-roles.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface RecurringScheduleProps {
  readonly declaration: RecurringScheduleDeclaration;
  readonly functionResources: FunctionResources;
}

/** EventBridge Scheduler's rate expression of a period, in whole hours where it is some (its unit is singular for a value of 1). */
export function rateExpression(minutes: number): string {
  const [value, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `rate(${value} ${unit}${value === 1 ? '' : 's'})`;
}

/**
 * A function EventBridge Scheduler invokes every `rateMinutes` (RECURRING_SCHEDULES), from a
 * schedule group of its own through a role that may invoke that function and send to its
 * dead-letter queue, and nothing else, and only for that group: what Scheduler cannot deliver
 * after its retries, and what the function keeps failing on, wait in the dead-letter queue.
 */
export class RecurringSchedule extends Construct {
  readonly target: AppFunction;
  readonly group: scheduler.CfnScheduleGroup;
  readonly schedule: scheduler.CfnSchedule;
  readonly schedulerRole: iam.Role;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: RecurringScheduleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.target = new AppFunction(this, 'Target', { declaration: props.declaration, resources: props.functionResources });
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', `the ${id} schedule's target and of the function's asynchronous invocations`);
    // A group of its own, named by CloudFormation: the role's trust names it (Scheduler's source is a group, never a schedule).
    this.group = new scheduler.CfnScheduleGroup(this, 'Group');
    const roleScope = { account: stack.account, groupArn: this.group.attrArn, targetArn: this.target.function.functionArn, deadLetterQueueArn: this.deadLetterQueue.queueArn };
    // Its statements inline in the role: one resource fewer per schedule than a separate policy.
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: `EventBridge Scheduler: invokes ${id} on its schedule`,
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: schedulerTrustCondition(roleScope) }),
      inlinePolicies: { invoke: iam.PolicyDocument.fromJson({ Version: '2012-10-17', Statement: schedulerRoleStatements(roleScope) }) },
    });
    const periodSeconds = props.declaration.rateMinutes * 60;
    this.schedule = new scheduler.CfnSchedule(this, 'Schedule', {
      description: props.declaration.description,
      groupName: this.group.ref,
      scheduleExpression: rateExpression(props.declaration.rateMinutes),
      flexibleTimeWindow: { mode: 'OFF' },
      target: {
        arn: this.target.function.functionArn,
        roleArn: this.schedulerRole.roleArn,
        deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        // Retried until its next run at most: that run does the same work.
        retryPolicy: {
          maximumRetryAttempts: SCHEDULE_RETRY_POLICY.maximumRetryAttempts,
          maximumEventAgeInSeconds: Math.min(periodSeconds, SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds),
        },
      },
    });
    // The scheduler invokes asynchronously; an invocation the function keeps failing on waits here too.
    this.target.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });
  }
}
