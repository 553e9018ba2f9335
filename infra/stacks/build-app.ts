import { Aspects, CfnDeletionPolicy, CfnResource, Stack, Token, Validations, type App, type IAspect } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { apiThrottles, DEFAULT_PLANNED_USERS } from '../../functions/api-throttles.js';
import {
  AUTO_RELEASE,
  COGNITO_TRIGGERS,
  DEPLOY_FUNCTIONS,
  EVENT_RULES,
  HTTP_ROUTE_GROUPS,
  QUEUE_CONSUMERS,
  RECURRING_SCHEDULES,
  SCHEDULE_TARGETS,
  STREAM_CONSUMERS,
  TOPIC_CONSUMERS,
  WEBSOCKET_API,
  type FunctionDeclaration,
} from '../../functions/routes.js';
import { OperationalAlarms } from '../constructs/alarms.js';
import { AppFunction } from '../constructs/app-function.js';
import { DEAD_LETTER_QUEUES, redriveCommand } from '../dead-letter-queues.js';
import { DEFAULT_STAGE, STAGE_PATTERN, stageNames } from '../constructs/names.js';
import { RecurringSchedule } from '../constructs/recurring-schedule.js';
import { ReleaseSchedules } from '../constructs/release-schedules.js';
import { ApiStack } from './api-stack.js';
import { AuthStack } from './auth-stack.js';
import { DataStack, type BrowserOrigin } from './data-stack.js';
import { EventsStack } from './events-stack.js';
import { SiteStack } from './site-stack.js';
import { WebStack, requireBuiltWebApp } from './web-stack.js';

export interface OddJobsAppOptions {
  /** The built SPA. @default web/dist of the repository */
  readonly webDistDir?: string;
  /** Stripe's publishable key. @default the `stripePublishableKey` context value (required) */
  readonly stripePublishableKey?: string;
  /** The admin the deploy creates. @default the `adminEmail` context value (required) */
  readonly adminEmail?: string;
  /** Who is mailed when an alarm fires. @default the `alarmEmail` context value, else nobody */
  readonly alarmEmail?: string;
  /**
   * The origin browsers load the site from, when it is not the distribution's own domain (a
   * custom domain in front of it). @default the `siteOrigin` context value, else the CloudFront domain
   */
  readonly siteOrigin?: string;
  /**
   * Which deployment this is: its stacks' names and every account-wide name derive from it,
   * so several stages (or regions) share an account. @default the `stage` context value, else "prod"
   */
  readonly stage?: string;
  /** The site's own domain and its ACM certificate in us-east-1. @default the `domainName` and `certificateArn` context values, else none */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /** The user pool mails from this address through SES. @default the `sesFromAddress` context value, else Cognito's sender */
  readonly sesFromAddress?: string;
  /** A new value mails the admin's invitation again. @default the `resendAdminInvitation` context value */
  readonly resendAdminInvitation?: string;
  /** The account's Lambda concurrency quota in the region, for its alarm. @default the `lambdaConcurrencyQuota` context value, else 1000 (Lambda's default) */
  readonly lambdaConcurrencyQuota?: number;
  /** Hours from a job's completion to its automatic release. @default the `autoReleaseHours` context value, else AUTO_RELEASE.defaultHours (72) */
  readonly autoReleaseHours?: number;
  /**
   * The registered users the API stages are throttled for (functions/api-throttles.ts derives each
   * route's throttle from its traffic model). @default the `plannedUsers` context value, else DEFAULT_PLANNED_USERS (1,000,000)
   */
  readonly plannedUsers?: number;
}

/** Lambda's default concurrency quota of an account in a region. */
const DEFAULT_LAMBDA_CONCURRENCY_QUOTA = 1000;

type SettingName =
  | 'stripePublishableKey'
  | 'adminEmail'
  | 'siteOrigin'
  | 'stage'
  | 'domainName'
  | 'certificateArn'
  | 'sesFromAddress'
  | 'resendAdminInvitation'
  | 'lambdaConcurrencyQuota'
  | 'autoReleaseHours'
  | 'plannedUsers';

/**
 * A value the deployment cannot work without, from the options or the context: synth stops
 * with what to pass instead of deploying something that breaks at run time.
 */
function requiredSetting(app: App, name: SettingName, given: string | undefined, pattern: RegExp, example: string): string {
  const value: unknown = given ?? app.node.tryGetContext(name);
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new Error(`The context value ${name} is ${value === undefined ? 'missing' : `not valid (${String(value)})`}: deploy with -c ${name}=${example} (docs/deploy.md).`);
  }
  return value;
}

/** A value the deployment may do without; when given, it must be valid. */
function optionalSetting(app: App, name: SettingName, given: string | undefined, pattern: RegExp, example: string): string | undefined {
  const value: unknown = given ?? app.node.tryGetContext(name);
  return value === undefined ? undefined : requiredSetting(app, name, String(value), pattern, example);
}

export interface OddJobsStacks {
  readonly site: SiteStack;
  readonly data: DataStack;
  readonly auth: AuthStack;
  readonly api: ApiStack;
  /** The event rules and their functions. */
  readonly events: EventsStack;
  /** The HTTP API's routes, their integrations and permissions. */
  readonly httpRoutes: Stack;
  readonly alarms: Stack;
  readonly web: WebStack;
}

/** What each declared function serves, as the alarms group them (one alarm per concern and ten functions). */
const FUNCTION_CONCERNS: ReadonlyArray<readonly [string, Readonly<Record<string, FunctionDeclaration>>]> = [
  ['HTTP API', HTTP_ROUTE_GROUPS],
  ['WebSocket API', { authorizer: WEBSOCKET_API.authorizer, connections: WEBSOCKET_API.connections }],
  ['event rules', EVENT_RULES],
  ['stream, queue and topic consumers', { ...STREAM_CONSUMERS, ...QUEUE_CONSUMERS, ...TOPIC_CONSUMERS }],
  ['schedules', { ...SCHEDULE_TARGETS, ...RECURRING_SCHEDULES }],
  ['user pool and deploy', { ...COGNITO_TRIGGERS, ...DEPLOY_FUNCTIONS }],
];

function concernOf(declaration: FunctionDeclaration): string {
  const found = FUNCTION_CONCERNS.find(([, declarations]) => Object.values(declarations).includes(declaration));
  if (!found) throw new Error(`${declaration.entry} is declared in none of FUNCTION_CONCERNS' lists: add its list there, so its alarms have a concern`);
  return found[0];
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The dead-letter queue of the construct `constructId` directly in `stack` (DEAD_LETTER_QUEUES says which). */
function deadLetterQueueOf(stack: Stack, constructId: string): IQueue {
  const owner = stack.node.tryFindChild(constructId) as { deadLetterQueue?: IQueue } | undefined;
  if (!owner?.deadLetterQueue) throw new Error(`${stack.stackName} has no ${constructId} with a dead-letter queue, as infra/dead-letter-queues.ts says it has`);
  return owner.deadLetterQueue;
}

/** Every construct of one kind in the given stacks. */
const allOf = <T>(kind: abstract new (...args: never[]) => T, scopes: readonly Construct[]): T[] =>
  scopes.flatMap((scope) => scope.node.findAll().filter((construct): construct is T & Construct => construct instanceof kind));

/**
 * What a stack keeps when it goes, it keeps except from a create that failed: CloudFormation
 * then deletes what that create made (DeletionPolicy RetainExceptOnCreate), so the retry of a
 * failed first deploy finds no bucket, secret, log group or key of its own in the way. Applied
 * to every resource CDK retains by default (log groups, KMS keys) as to those we retain.
 */
const keptExceptFromAFailedCreate: IAspect = {
  visit(node: IConstruct) {
    if (node instanceof CfnResource && node.cfnOptions.deletionPolicy === CfnDeletionPolicy.RETAIN) {
      node.cfnOptions.deletionPolicy = CfnDeletionPolicy.RETAIN_EXCEPT_ON_CREATE;
    }
  },
};

/**
 * The whole application, stateful stacks first: data and auth are kept across deployments and
 * protected from deletion; api and web hold no data and can be replaced. Every stack is checked
 * against the AWS Solutions rules when the app is synthesized.
 */
export function buildApp(app: App, options: OddJobsAppOptions = {}): OddJobsStacks {
  const webDistDir = requireBuiltWebApp(options.webDistDir);
  const stripePublishableKey = requiredSetting(app, 'stripePublishableKey', options.stripePublishableKey, /^pk_(test|live)_\w+$/, 'pk_live_...');
  const adminEmail = requiredSetting(app, 'adminEmail', options.adminEmail, EMAIL_PATTERN, 'admin@example.com');
  const names = stageNames(optionalSetting(app, 'stage', options.stage, STAGE_PATTERN, 'staging') ?? DEFAULT_STAGE);
  const domainName = optionalSetting(app, 'domainName', options.domainName, /^([a-z0-9-]+\.)+[a-z]{2,}$/, 'jobs.example.com');
  // CloudFront takes certificates from us-east-1 only.
  const certificateArn = optionalSetting(app, 'certificateArn', options.certificateArn, /^arn:aws:acm:us-east-1:\d{12}:certificate\/[\w-]+$/, 'arn:aws:acm:us-east-1:<account>:certificate/<id>');
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new Error('The context values domainName and certificateArn go together: deploy with both or neither (docs/deploy.md).');
  }
  const sesFromAddress = optionalSetting(app, 'sesFromAddress', options.sesFromAddress, EMAIL_PATTERN, 'no-reply@jobs.example.com');
  const lambdaConcurrencyQuota = Number(
    optionalSetting(app, 'lambdaConcurrencyQuota', options.lambdaConcurrencyQuota?.toString(), /^[1-9]\d*$/, '5000') ?? DEFAULT_LAMBDA_CONCURRENCY_QUOTA,
  );
  const autoReleaseHours = Number(
    optionalSetting(app, 'autoReleaseHours', options.autoReleaseHours?.toString(), /^[1-9]\d*$/, '72') ?? AUTO_RELEASE.defaultHours,
  );
  const plannedUsers = Number(optionalSetting(app, 'plannedUsers', options.plannedUsers?.toString(), /^[1-9]\d*$/, '5000000') ?? DEFAULT_PLANNED_USERS);
  const resendAdminInvitation = optionalSetting(app, 'resendAdminInvitation', options.resendAdminInvitation, /^\S+$/, new Date().toISOString().slice(0, 10));
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  Aspects.of(app).add(keptExceptFromAFailedCreate);

  // The site first: its origin is the only one whose pages may upload images, the one Stripe's
  // onboarding returns to and emails link to; its distribution serves the HTTP API too.
  const site = new SiteStack(app, names.stackName('Site'), {
    description: 'Odd jobs: the CloudFront distribution and bucket of the web app',
    names,
    domain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
  });
  const siteOrigin = optionalSetting(app, 'siteOrigin', options.siteOrigin, /^https:\/\/[^/\s]+$/, 'https://jobs.example.com') ?? site.origin;
  // The CloudFront origin reaches the kept data stack through a parameter, not an export (BrowserOrigin).
  const siteOriginParameterName = `/${names.prefix}/site-origin`;
  if (Token.isUnresolved(siteOrigin)) {
    new ssm.StringParameter(site, 'OriginParameter', {
      parameterName: siteOriginParameterName,
      stringValue: siteOrigin,
      description: "Odd jobs: the site's origin, which the data stack's upload bucket admits",
    });
  }
  // By its name, a literal: the parameter's own attribute would be an export again.
  const browserOrigin: BrowserOrigin = Token.isUnresolved(siteOrigin) ? { parameterName: siteOriginParameterName } : { origin: siteOrigin };

  const data = new DataStack(app, names.stackName('Data'), {
    description: 'Odd jobs: the table and the job images (stateful)',
    terminationProtection: true,
    browserOrigin,
  });
  data.addDependency(site);
  const auth = new AuthStack(app, names.stackName('Auth'), {
    description: 'Odd jobs: the user pool and its triggers (stateful)',
    terminationProtection: true,
    dataCapabilities: data.capabilities,
    adminEmail,
    resendAdminInvitation,
    sesFromAddress,
  });
  const httpRoutes = new Stack(app, names.stackName('HttpRoutes'), {
    description: "Odd jobs: the HTTP API's routes, their integrations and the functions' permissions",
  });
  const api = new ApiStack(app, names.stackName('Api'), {
    description: 'Odd jobs: HTTP and WebSocket APIs, event bus and functions',
    dataCapabilities: data.capabilities,
    table: data.table,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    tokenIssuer: auth.tokenIssuer,
    siteOrigin,
    httpApi: site.httpApi,
    stripeSecret: data.stripeSecret,
    vapidSecret: data.vapidSecret,
    httpRoutes,
    autoReleaseSeconds: autoReleaseHours * 3600,
    mailFromAddress: sesFromAddress,
    mailConfigurationSet: auth.mailFeedback.configurationSet,
    unsubscribeSecret: data.unsubscribeSecret,
    throttles: apiThrottles(plannedUsers),
  });
  const events = new EventsStack(app, names.stackName('Events'), {
    description: 'Odd jobs: the event rules on the bus and their functions',
    eventBus: api.eventBus,
    functionResources: api.functionResources,
  });
  const web = new WebStack(app, names.stackName('Web'), {
    description: 'Odd jobs: the web app build and its config.json, deployed to the site',
    webDistDir,
    distribution: site.distribution,
    webSocketStage: api.webSocketApi.stage,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    imagesBucket: data.imagesBucket,
    imagesUrl: data.imagesUrl,
    stripePublishableKey,
    names,
    siteOrigin,
  });
  // It deploys into the site's bucket, which it names rather than references; and the app
  // works once the routes are there.
  web.addStackDependency(site);
  web.addStackDependency(httpRoutes);
  // A stack of their own, after everything they watch; every declared function and every
  // dead-letter queue is found here, so a new declaration gets its alarms without a change to this file.
  const alarms = new Stack(app, names.stackName('Alarms'), { description: 'Odd jobs: the alarms, their SNS topic and the operations dashboard' });
  new OperationalAlarms(alarms, 'Alarms', {
    functions: allOf(AppFunction, [auth, api, events]).map((appFunction) => ({ function: appFunction.function, concern: concernOf(appFunction.declaration) })),
    deadLetterQueues: Object.entries(DEAD_LETTER_QUEUES).map(([declarationName, source]) => ({
      queue: deadLetterQueueOf({ Api: api, Auth: auth, Events: events }[source.stack], source.constructId),
      clearedBy:
        source.kind === 'stream'
          ? 'Its stream records expired and cannot be re-delivered: see docs/deploy.md, "Dead letters".'
          : `Clear it with \`${redriveCommand(declarationName, names.stage)}\` once the cause is fixed (docs/deploy.md, "Dead letters").`,
    })),
    scheduleGroups: [...allOf(ReleaseSchedules, [api]), ...allOf(RecurringSchedule, [api])].map((schedules) => ({ name: schedules.group.ref, path: schedules.node.path })),
    httpApi: api.httpApi,
    webSocketStage: api.webSocketApi.stage,
    table: data.table,
    outboxRelay: api.outboxRelay.consumer.function,
    jobFeedQueue: api.jobFeedQueue.queue,
    reconciliation: allOf(RecurringSchedule, [api]).find((schedule) => schedule.target.declaration === RECURRING_SCHEDULES.reconciliation)!.target.function,
    moneyDecisions: allOf(RecurringSchedule, [api]).find((schedule) => schedule.target.declaration === RECURRING_SCHEDULES.moneyDecisions)!.target.function,
    stripeWebhook: allOf(AppFunction, [api]).find((appFunction) => appFunction.declaration === HTTP_ROUTE_GROUPS.stripeWebhook)!.function,
    accountConcurrencyQuota: lambdaConcurrencyQuota,
    alarmEmail: options.alarmEmail ?? app.node.tryGetContext('alarmEmail'),
  });
  return { site, data, auth, api, events, httpRoutes, alarms, web };
}
