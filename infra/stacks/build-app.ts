import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { OperationalAlarms } from '../constructs/alarms.js';
import { AppFunction } from '../constructs/app-function.js';
import { EventSubscription } from '../constructs/event-subscription.js';
import { QueueSubscription } from '../constructs/queue-subscription.js';
import { StreamSubscription } from '../constructs/stream-subscription.js';
import { ApiStack } from './api-stack.js';
import { AuthStack } from './auth-stack.js';
import { DataStack } from './data-stack.js';
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
}

/**
 * A value the deployment cannot work without, from the options or the context: synth stops
 * with what to pass instead of deploying something that breaks at run time.
 */
function requiredSetting(app: App, name: 'stripePublishableKey' | 'adminEmail' | 'siteOrigin', given: string | undefined, pattern: RegExp, example: string): string {
  const value: unknown = given ?? app.node.tryGetContext(name);
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new Error(`The context value ${name} is ${value === undefined ? 'missing' : `not valid (${String(value)})`}: deploy with -c ${name}=${example} (docs/deploy.md).`);
  }
  return value;
}

/** A value the deployment may do without; when given, it must be valid. */
function optionalSetting(app: App, name: 'siteOrigin', given: string | undefined, pattern: RegExp, example: string): string | undefined {
  const value: unknown = given ?? app.node.tryGetContext(name);
  return value === undefined ? undefined : requiredSetting(app, name, String(value), pattern, example);
}

export interface OddJobsStacks {
  readonly site: SiteStack;
  readonly data: DataStack;
  readonly auth: AuthStack;
  readonly api: ApiStack;
  readonly web: WebStack;
}

/** Every construct of one kind in the given stacks. */
const allOf = <T>(kind: abstract new (...args: never[]) => T, scopes: readonly Construct[]): T[] =>
  scopes.flatMap((scope) => scope.node.findAll().filter((construct): construct is T & Construct => construct instanceof kind));

/**
 * The whole application, stateful stacks first: data and auth are kept across deployments and
 * protected from deletion; api and web hold no data and can be replaced. Every stack is checked
 * against the AWS Solutions rules when the app is synthesized.
 */
export function buildApp(app: App, options: OddJobsAppOptions = {}): OddJobsStacks {
  const webDistDir = requireBuiltWebApp(options.webDistDir);
  const stripePublishableKey = requiredSetting(app, 'stripePublishableKey', options.stripePublishableKey, /^pk_(test|live)_\w+$/, 'pk_live_...');
  const adminEmail = requiredSetting(app, 'adminEmail', options.adminEmail, /^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'admin@example.com');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

  // The site first: its origin is the only one whose pages may call the API and upload images,
  // and the one Stripe's onboarding returns to.
  const site = new SiteStack(app, 'OddJobsSite', { description: 'Odd jobs: the CloudFront distribution and bucket of the web app' });
  const siteOrigin = optionalSetting(app, 'siteOrigin', options.siteOrigin, /^https:\/\/[^/\s]+$/, 'https://jobs.example.com') ?? site.origin;
  const browserOrigins: [string] = [siteOrigin];

  const data = new DataStack(app, 'OddJobsData', {
    description: 'Odd jobs: the table and the job images (stateful)',
    terminationProtection: true,
    browserOrigins,
  });
  const auth = new AuthStack(app, 'OddJobsAuth', {
    description: 'Odd jobs: the user pool and its triggers (stateful)',
    terminationProtection: true,
    dataCapabilities: data.capabilities,
    adminEmail,
  });
  const api = new ApiStack(app, 'OddJobsApi', {
    description: 'Odd jobs: HTTP and WebSocket APIs, event bus and functions',
    dataCapabilities: data.capabilities,
    table: data.table,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    tokenIssuer: auth.tokenIssuer,
    browserOrigins,
    stripeSecret: data.stripeSecret,
  });
  const web = new WebStack(app, 'OddJobsWeb', {
    description: 'Odd jobs: the web app build and its config.json, deployed to the site',
    webDistDir,
    distribution: site.distribution,
    httpApi: api.httpApi.api,
    webSocketStage: api.webSocketApi.stage,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    imagesBucket: data.imagesBucket,
    imagesUrl: data.imagesUrl,
    stripePublishableKey,
  });
  // It deploys into the site's bucket, which it names rather than references.
  web.addDependency(site);
  // Beside the functions and APIs it watches; every declared function and every dead-letter
  // queue is found here, so a new declaration gets its alarms without a change to this file.
  new OperationalAlarms(api, 'Alarms', {
    functions: allOf(AppFunction, [auth, api]).map((appFunction) => appFunction.function),
    deadLetterQueues: [...allOf(EventSubscription, [api]), ...allOf(QueueSubscription, [api]), ...allOf(StreamSubscription, [api])].map(
      (subscription) => subscription.deadLetterQueue,
    ),
    httpApi: api.httpApi.api,
    webSocketStage: api.webSocketApi.stage,
    table: data.table,
    alarmEmail: options.alarmEmail ?? app.node.tryGetContext('alarmEmail'),
  });
  return { site, data, auth, api, web };
}
