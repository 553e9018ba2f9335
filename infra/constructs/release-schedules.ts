import { CustomResource, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as cr from 'aws-cdk-lib/custom-resources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEPLOY_FUNCTIONS, type FunctionDeclaration } from '../../functions/routes.js';
import { schedulerRoleStatements, schedulerTrustCondition } from '../scheduler-roles.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';
import { acknowledgeCustomResourceProvider } from './nag.js';

export interface ReleaseSchedulesProps {
  /** The function the schedules invoke (SCHEDULE_TARGETS.autoRelease). */
  readonly target: FunctionDeclaration;
  readonly functionResources: FunctionResources;
}

/**
 * What `schedules:auto-release` offers: the schedule group the one-time release schedules live
 * in, the function they invoke, the dead-letter queue of both the schedules (what Scheduler could
 * not deliver) and the function (what it kept failing on), and the role EventBridge Scheduler
 * invokes it with, which may invoke that function and send to that queue, and nothing else, and
 * only for schedules of this group and account. On the upgrade from a deployment older than
 * 28 Nov 2026, a custom resource moves the schedules that deployment left in its own group here.
 */
export class ReleaseSchedules extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly target: AppFunction;
  readonly schedulerRole: iam.Role;
  readonly deadLetterQueue: sqs.Queue;
  /**
   * The group a deployment older than 28 Nov 2026 kept these schedules in: an L2 ScheduleGroup
   * at this group's path, which named itself from that path (and was retained when replaced).
   */
  readonly previousGroupName: string;

  constructor(scope: Construct, id: string, props: ReleaseSchedulesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // No fixed name: CloudFormation names it, so a stack created again (after a failed first
    // deploy, or replaced) never meets a group of the same name. Kept when the stack goes (its
    // pending schedules are workers' payments) but not when its creation rolls back.
    this.group = new scheduler.CfnScheduleGroup(this, 'Group');
    this.group.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    this.previousGroupName = Names.uniqueResourceName(this.group, { maxLength: 64, separator: '-' });
    this.target = new AppFunction(this, 'Target', { declaration: props.target, resources: props.functionResources });
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', "the auto-release schedules' targets and of the function's asynchronous invocations");

    const roleScope = { account: stack.account, groupArn: this.group.attrArn, targetArn: this.target.function.functionArn, deadLetterQueueArn: this.deadLetterQueue.queueArn };
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: 'EventBridge Scheduler: invokes the auto-release function for the schedules of its group',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: schedulerTrustCondition(roleScope) }),
      // Inline: one resource fewer than a separate policy.
      inlinePolicies: { invoke: iam.PolicyDocument.fromJson({ Version: '2012-10-17', Statement: schedulerRoleStatements(roleScope) }) },
    });

    // The scheduler invokes asynchronously; an invocation the function keeps failing on waits here too.
    this.target.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });

    this.moveFromPreviousGroup(props.functionResources);
  }

  /**
   * The schedules an older deployment left in its group could no longer run (the role trusts
   * this group only): the deploy moves them here and deletes that group, once, when this
   * resource is created (functions/money/deploy/release-schedule-move.ts).
   */
  private moveFromPreviousGroup(functionResources: FunctionResources): void {
    const move = new AppFunction(this, 'PreviousGroupMove', { declaration: DEPLOY_FUNCTIONS.releaseScheduleMove, resources: { ...functionResources, releaseSchedules: this } });
    const provider = new cr.Provider(this, 'PreviousGroupMoveProvider', { onEventHandler: move.function });
    acknowledgeCustomResourceProvider(provider);
    new CustomResource(this, 'PreviousGroupMoved', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::ReleaseScheduleMove',
      properties: { PreviousGroup: this.previousGroupName, Group: this.groupName },
    });
  }

  /** The group's name, as the functions pass it to CreateSchedule. */
  get groupName(): string {
    return this.group.ref;
  }

  /** Every schedule of the group (schedule names exist only at run time: one per job). */
  scheduleArns(): string {
    return Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.group.ref}/*` });
  }
}
