import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface ReleaseSchedulesProps {
  /** The function the schedules invoke (SCHEDULE_TARGETS.autoRelease). */
  readonly target: FunctionDeclaration;
  readonly functionResources: FunctionResources;
}

/**
 * What `schedules:auto-release` offers: the schedule group the one-time release schedules live
 * in, the function they invoke, and the role EventBridge Scheduler invokes it with, which may
 * invoke that function and nothing else, and only for schedules of this group and account.
 */
export class ReleaseSchedules extends Construct {
  readonly group: scheduler.ScheduleGroup;
  readonly target: AppFunction;
  readonly schedulerRole: iam.Role;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ReleaseSchedulesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.group = new scheduler.ScheduleGroup(this, 'Group');
    this.target = new AppFunction(this, 'Target', { declaration: props.target, resources: props.functionResources });

    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: 'EventBridge Scheduler: invokes the auto-release function for the schedules of its group',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': this.scheduleArns() },
        },
      }),
    });
    // The function itself, not its versions (grantInvoke would add `:*`): schedules target the unqualified ARN.
    this.schedulerRole.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.target.function.functionArn] }));

    // The scheduler invokes asynchronously; an invocation the function keeps failing on waits here.
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', "the auto-release function's asynchronous invocations");
    this.target.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });
  }

  /** Every schedule of the group (schedule names exist only at run time: one per job). */
  scheduleArns(): string {
    return Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.group.scheduleGroupName}/*` });
  }
}
