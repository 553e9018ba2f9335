import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import type { RecurringSchedule as RecurringScheduleDeclaration } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface RecurringScheduleProps {
  readonly declaration: RecurringScheduleDeclaration;
  readonly functionResources: FunctionResources;
}

/**
 * A function EventBridge Scheduler invokes every `rateHours` (RECURRING_SCHEDULES), through a
 * role that may invoke that function and nothing else, and only for this one schedule.
 */
export class RecurringSchedule extends Construct {
  readonly target: AppFunction;
  readonly schedule: scheduler.CfnSchedule;
  readonly schedulerRole: iam.Role;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: RecurringScheduleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.target = new AppFunction(this, 'Target', { declaration: props.declaration, resources: props.functionResources });
    // Its one statement inline in the role: one resource fewer per schedule than a separate policy.
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: `EventBridge Scheduler: invokes ${id} on its schedule`,
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
      inlinePolicies: {
        invoke: new iam.PolicyDocument({ statements: [new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.target.function.functionArn] })] }),
      },
    });
    this.schedule = new scheduler.CfnSchedule(this, 'Schedule', {
      description: props.declaration.description,
      // The unit is singular for a value of 1 (EventBridge Scheduler's rate expression).
      scheduleExpression: `rate(${props.declaration.rateHours} ${props.declaration.rateHours === 1 ? 'hour' : 'hours'})`,
      flexibleTimeWindow: { mode: 'OFF' },
      target: { arn: this.target.function.functionArn, roleArn: this.schedulerRole.roleArn },
    });
    // The scheduler invokes asynchronously; an invocation the function keeps failing on waits here.
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', `the ${id} function's asynchronous invocations`);
    this.target.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });
  }
}
