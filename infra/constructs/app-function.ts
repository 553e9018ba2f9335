import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { join } from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IConfigurationSet } from 'aws-cdk-lib/aws-ses';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { CfnPlaceIndex } from 'aws-cdk-lib/aws-location';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import { CAPABILITY_GRANTS, DEFAULT_SECRET_MAX_AGE_SECONDS, ENV, declaredEnvironment, declaredSettings, type Capability, type EnvKey, type FunctionDeclaration, type Setting } from '../../functions/routes.js';
import type { ManagedCapability } from './data-capabilities.js';
import { acknowledgeWildcardPermissions } from './nag.js';
import { FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS } from './function-bundle.js';
import { REPO_ROOT } from './repo.js';

export { FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS };

/** A dependency FUNCTION_BUNDLE leaves out, and what its stand-in module re-exports (Stripe's SDK has only a default export). */
export interface PrebundledDependency {
  readonly module: (typeof FUNCTION_BUNDLE.external)[number];
  readonly reexport: 'default' | 'all';
}

/**
 * The dependencies a capability's functions import lazily, which FUNCTION_BUNDLE leaves out:
 * each bundled on its own into the asset's node_modules, where the function's `import()`
 * finds it, with the others left external so they share one copy (the presigned POST signs
 * with the S3 client's module). S3 is called only by functions that write images.
 */
const PREBUNDLED_DEPENDENCIES: Partial<Record<Capability, readonly PrebundledDependency[]>> = {
  stripe: [{ module: 'stripe', reexport: 'default' }],
  'push:vapid': [{ module: 'web-push', reexport: 'default' }],
  'images:write': [
    { module: '@aws-sdk/client-s3', reexport: 'all' },
    { module: '@aws-sdk/s3-presigned-post', reexport: 'all' },
  ],
};

/** What is bundled beside a function with these capabilities. */
export const prebundledDependencies = (capabilities: readonly Capability[]): PrebundledDependency[] =>
  capabilities.flatMap((capability) => PREBUNDLED_DEPENDENCIES[capability] ?? []);

/**
 * How a pre-bundled dependency is built, in esbuild's terms (the CDK hook below renders it as
 * a command line, the cold-start bench runs it): its stand-in module's source, bundled as the
 * functions are, but without source maps and with the other left-out dependencies external.
 */
export function prebundleBuild({ module, reexport }: PrebundledDependency) {
  return {
    source: reexport === 'default' ? `export { default } from '${module}';` : `export * from '${module}';`,
    options: {
      ...FUNCTION_ESBUILD_OPTIONS,
      sourcemap: false,
      external: FUNCTION_BUNDLE.external.filter((other) => other !== module),
    } satisfies BuildOptions,
  };
}

/** The package.json that makes `outputDir`/node_modules/`module` the stand-in module's package. */
export const prebundlePackageJson = (module: string) => JSON.stringify({ name: module, type: 'module', main: 'index.js' });

/** Shell commands that bundle `dependency` as ESM into `outputDir`/node_modules (prebundleBuild as esbuild's command line). */
function prebundleCommands(dependency: PrebundledDependency, inputDir: string, outputDir: string): string[] {
  const { source, options } = prebundleBuild(dependency);
  // Every option rendered: one added to FUNCTION_ESBUILD_OPTIONS fails to compile here until it is.
  const { bundle, platform, format, target, minify, mainFields, banner, alias, external, sourcemap, sourcesContent, ...unrendered } = options;
  unrendered satisfies Record<string, never>;
  const outdir = `${outputDir}/node_modules/${dependency.module}`;
  const args = [
    ...(bundle ? ['--bundle'] : []),
    `--platform=${platform}`,
    `--format=${format}`,
    `--target=${target}`,
    ...(minify ? ['--minify'] : []),
    `--main-fields=${mainFields.join(',')}`,
    `--banner:js="${banner.js}"`,
    ...Object.entries(alias).map(([module, path]) => `--alias:${module}="${path}"`),
    ...external.map((module) => `--external:${module}`),
    ...(sourcemap ? ['--sourcemap', `--sources-content=${String(sourcesContent)}`] : []),
    '--log-level=error',
    `--outfile="${outdir}/index.js"`,
  ];
  return [`mkdir -p "${outdir}"`, `echo '${prebundlePackageJson(dependency.module)}' > "${outdir}/package.json"`, `echo "${source}" | "${inputDir}/node_modules/.bin/esbuild" ${args.join(' ')}`];
}

const DEFAULT_MEMORY_MIB = 256;
export const DEFAULT_TIMEOUT_SECONDS = 10;

/** The SES sender of `mail:send`: its address, if the deploy has one (`-c sesFromAddress`). */
export interface MailSender {
  readonly fromAddress?: string;
  /** The configuration set every email is sent with: its bounces and complaints reach TOPIC_CONSUMERS.sesFeedback. */
  readonly configurationSet: IConfigurationSet;
}

/**
 * The SES identities a sender's mail is authorized against: the address, and its domain (the
 * identity verified when the whole domain is, as the user pool's sender needs).
 */
export function senderIdentityArns(scope: Construct, fromAddress: string): string[] {
  const stack = Stack.of(scope);
  return [fromAddress, fromAddress.split('@')[1]!].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }));
}

/** The ARN of an SES configuration set, which SendEmail with that set is authorized on. */
export const configurationSetArn = (scope: Construct, configurationSet: IConfigurationSet) =>
  Stack.of(scope).formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSet.configurationSetName });

/**
 * What `schedules:auto-release` grants on: ReleaseSchedules (release-schedules.ts) as this file
 * sees it. Stated here, not imported: ReleaseSchedules builds its target as an AppFunction, and
 * the two files importing each other made an import circle.
 */
export interface ScheduleGroupGrant {
  /** The group's name, as the functions pass it to CreateSchedule. */
  readonly groupName: string;
  readonly target: { readonly function: Pick<lambda.IFunction, 'functionArn'> };
  readonly schedulerRole: iam.IRole;
  /** Where Scheduler puts what it could not deliver (each schedule's DeadLetterConfig). */
  readonly deadLetterQueue: Pick<IQueue, 'queueArn'>;
  /** The group a deployment older than 28 Nov 2026 kept these schedules in (`schedules:previous-auto-release`). */
  readonly previousGroupName: string;
  scheduleArns(): string;
}

/**
 * What the stack creating a function offers its capabilities. A function that declares a
 * capability its stack does not offer is a wiring mistake, reported at synth.
 */
export interface FunctionResources {
  /** Capabilities granted by a managed policy of the resource's own stack (table, images). */
  readonly managedCapabilities?: Partial<Readonly<Record<Capability, ManagedCapability>>>;
  readonly eventBus?: IEventBus;
  /** The stage whose connections `sockets:push` posts to; in the function's own stack. */
  readonly webSocketStage?: WebSocketStage;
  readonly userPool?: IUserPool;
  /** The Amazon Location place index that `geocoding` searches. */
  readonly placeIndex?: CfnPlaceIndex;
  /** The Stripe keys that `stripe` reads. */
  readonly stripeSecret?: ISecret;
  /** The VAPID keys that `push:vapid` reads. */
  readonly vapidSecret?: ISecret;
  /** The job feed's fan-out queue that `queue:job-feed` sends to. */
  readonly jobFeedQueue?: IQueue;
  /** The group, target and scheduler role of `schedules:auto-release` (the stack's ReleaseSchedules). */
  readonly releaseSchedules?: ScheduleGroupGrant;
  /** The mail queue that `queue:mail` sends to. */
  readonly mailQueue?: IQueue;
  /** What `mail:send` sends from: the deploy's sender address (none: email is off), granted on its identities only. */
  readonly mailSender?: MailSender;
  /** The key that signs unsubscribe tokens, which `mail:unsubscribe-key` reads. */
  readonly unsubscribeSecret?: ISecret;
  /** The settings the stack offers; a function gets those its declaration names. */
  readonly settings?: Readonly<Partial<Record<Setting, string>>>;
}

export interface AppFunctionProps {
  /** The entry point as declared in functions/routes.ts. */
  readonly declaration: FunctionDeclaration;
  readonly resources: FunctionResources;
}

/**
 * One backend entry point as a Lambda function: bundled from its TypeScript module with the
 * local esbuild, on Node.js 22 / arm64, with its own log group and a role that holds exactly
 * the permissions its declared capabilities need.
 */
export class AppFunction extends Construct {
  readonly declaration: FunctionDeclaration;
  readonly function: NodejsFunction;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const declaration = (this.declaration = props.declaration);

    // Our own role instead of the AWS-managed basic execution role: it may write to this
    // function's log group only, not create or write any log group in the account.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${declaration.entry}`,
    });
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });
    logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(REPO_ROOT, declaration.entry),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: declaration.memoryMiB ?? DEFAULT_MEMORY_MIB,
      timeout: Duration.seconds(declaration.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      // No X-Ray (docs/decisions/0110-no-x-ray.md): without instrumented SDK clients a trace shows one bare
      // segment per invocation, and the tracer would add its SDK to every cold start.
      tracing: lambda.Tracing.DISABLED,
      role: this.role,
      logGroup,
      // Every line JSON, the platform's START/REPORT lines included; ours come from Powertools.
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { NODE_OPTIONS: FUNCTION_BUNDLE.nodeOptions },
      bundling: {
        format: OutputFormat.ESM,
        target: FUNCTION_BUNDLE.target,
        minify: FUNCTION_BUNDLE.minify,
        sourceMap: FUNCTION_BUNDLE.sourcemap,
        sourcesContent: FUNCTION_BUNDLE.sourcesContent,
        externalModules: [...FUNCTION_BUNDLE.external],
        banner: FUNCTION_BUNDLE.banner,
        mainFields: [...FUNCTION_BUNDLE.mainFields],
        esbuildArgs: Object.fromEntries(Object.entries(FUNCTION_BUNDLE.alias).map(([module, path]) => [`--alias:${module}`, path])),
        forceDockerBundling: false,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir, outputDir) =>
            prebundledDependencies(declaration.capabilities).flatMap((dependency) => prebundleCommands(dependency, inputDir, outputDir)),
        },
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 is the chosen runtime: the bundles target node22; moving to 24 is one deliberate change of target and runtime.',
    });

    // Exactly the declared environment (functions/routes.ts), which the local stack gives too.
    const environment: Partial<Record<EnvKey, string>> = {};
    for (const capability of declaration.capabilities) {
      const given = this.grantCapability(capability, props.resources);
      const names = Object.keys(given).sort().join();
      if (names !== [...CAPABILITY_GRANTS[capability].environment].sort().join()) {
        throw new Error(`${this.node.path}: '${capability}' sets ${names || 'nothing'}, not what CAPABILITY_GRANTS declares`);
      }
      Object.assign(environment, given);
    }
    for (const setting of declaredSettings(declaration)) environment[setting] = this.need(setting, props.resources.settings?.[setting]);
    for (const key of declaredEnvironment(declaration)) this.function.addEnvironment(ENV[key], environment[key]!);
  }

  /** Grants a capability's actions; answers the environment that goes with it. */
  private grantCapability(capability: Capability, resources: FunctionResources): Partial<Record<EnvKey, string>> {
    const fn = this.function;
    const actions = [...CAPABILITY_GRANTS[capability].actions];
    // Where the CDK's own grant methods write the statement (bus, stage, secret, queue), test/infra
    // proves that their actions are CAPABILITY_GRANTS', which the local stack enforces.
    switch (capability) {
      case 'table:read':
      case 'table:write':
      case 'images:read':
      case 'images:write': {
        const { policy, environment } = this.need(capability, resources.managedCapabilities?.[capability]);
        this.role.addManagedPolicy(policy);
        return environment;
      }
      case 'events:put': {
        const bus = this.need(capability, resources.eventBus);
        bus.grantPutEventsTo(fn);
        return { eventBusName: bus.eventBusName };
      }
      case 'sockets:push': {
        const stage = this.need(capability, resources.webSocketStage);
        acknowledgeWildcardPermissions(
          this.role,
          stage.grantManagementApiAccess(fn).principalStatements,
          'Connection ids exist only at run time; the grant covers the connections of this API stage only.',
        );
        return { socketsEndpoint: stage.callbackUrl };
      }
      case 'geocoding': {
        const placeIndex = this.need(capability, resources.placeIndex);
        iam.Grant.addToPrincipal({ grantee: fn, actions, resourceArns: [placeIndex.attrIndexArn] });
        return { placeIndexName: placeIndex.indexName };
      }
      case 'userpool:admin-group': {
        const userPool = this.need(capability, resources.userPool);
        // A policy of its own, not the role's default policy: this function is the pool's
        // trigger, so the pool depends on the function and the function on its default
        // policy; the pool's ARN in that policy would close a cycle.
        new iam.Policy(this, 'AdminGroupPolicy', {
          roles: [this.role],
          statements: [new iam.PolicyStatement({ actions, resources: [userPool.userPoolArn] })],
        });
        return {};
      }
      case 'userpool:create-admin':
      case 'userpool:manage-users': {
        const userPool = this.need(capability, resources.userPool);
        iam.Grant.addToPrincipal({ grantee: fn, actions, resourceArns: [userPool.userPoolArn] });
        return { userPoolId: userPool.userPoolId };
      }
      case 'userpool:delete-user': {
        const userPool = this.need(capability, resources.userPool);
        iam.Grant.addToPrincipal({ grantee: fn, actions, resourceArns: [userPool.userPoolArn] });
        return { userPoolId: userPool.userPoolId, userPoolClientId: this.need('userPoolClientId', resources.settings?.userPoolClientId) };
      }
      case 'stripe': {
        const secret = this.need(capability, resources.stripeSecret);
        secret.grantRead(fn);
        return { stripeSecretArn: secret.secretArn, secretMaxAgeSeconds: String(DEFAULT_SECRET_MAX_AGE_SECONDS) };
      }
      case 'push:vapid': {
        const secret = this.need(capability, resources.vapidSecret);
        secret.grantRead(fn);
        return { vapidSecretArn: secret.secretArn, secretMaxAgeSeconds: String(DEFAULT_SECRET_MAX_AGE_SECONDS) };
      }
      case 'queue:job-feed': {
        const queue = this.need(capability, resources.jobFeedQueue);
        queue.grantSendMessages(fn);
        return { jobFeedQueueUrl: queue.queueUrl };
      }
      case 'schedules:auto-release': {
        const schedules = this.need(capability, resources.releaseSchedules);
        // Create and delete only, in the group only; the one role it may pass is the one that may invoke only the target.
        const statement = new iam.PolicyStatement({ actions: actions.filter((action) => action.startsWith('scheduler:')), resources: [schedules.scheduleArns()] });
        this.role.addToPrincipalPolicy(statement);
        acknowledgeWildcardPermissions(this.role, [statement], 'Schedule names exist only at run time (one per job); the grant covers the schedules of the auto-release group only.');
        schedules.schedulerRole.grantPassRole(this.role);
        return {
          autoReleaseScheduleGroup: schedules.groupName,
          autoReleaseTargetArn: schedules.target.function.functionArn,
          autoReleaseSchedulerRoleArn: schedules.schedulerRole.roleArn,
          autoReleaseDeadLetterQueueArn: schedules.deadLetterQueue.queueArn,
        };
      }
      case 'schedules:previous-auto-release': {
        const { previousGroupName } = this.need(capability, resources.releaseSchedules);
        const stack = Stack.of(this);
        const group = stack.formatArn({ service: 'scheduler', resource: 'schedule-group', resourceName: previousGroupName });
        const statements = [
          new iam.PolicyStatement({ actions: ['scheduler:GetScheduleGroup', 'scheduler:DeleteScheduleGroup'], resources: [group] }),
          new iam.PolicyStatement({ actions: ['scheduler:GetSchedule'], resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${previousGroupName}/*` })] }),
          // ListSchedules has no resource to scope it to (the Service Authorization Reference).
          new iam.PolicyStatement({ actions: ['scheduler:ListSchedules'], resources: ['*'] }),
        ];
        statements.forEach((statement) => this.role.addToPrincipalPolicy(statement));
        acknowledgeWildcardPermissions(this.role, statements, "The previous group's schedule names exist only at run time; ListSchedules takes no resource. Read and delete only, of that group.");
        return { previousAutoReleaseScheduleGroup: previousGroupName };
      }
      case 'queue:mail': {
        const queue = this.need(capability, resources.mailQueue);
        queue.grantSendMessages(fn);
        return { mailQueueUrl: queue.queueUrl };
      }
      case 'mail:send': {
        const { fromAddress, configurationSet } = this.need(capability, resources.mailSender);
        // Without a sender the mailer sends nothing (it says so in its log), and may send nothing.
        if (fromAddress) {
          this.role.addToPrincipalPolicy(
            new iam.PolicyStatement({
              actions,
              // Sending with a configuration set is authorized on the set as well as on the identity.
              resources: [...senderIdentityArns(this, fromAddress), configurationSetArn(this, configurationSet)],
              conditions: { StringEquals: { 'ses:FromAddress': fromAddress } },
            }),
          );
        }
        return { mailFromAddress: fromAddress ?? '', mailConfigurationSet: configurationSet.configurationSetName };
      }
      case 'mail:unsubscribe-key': {
        const secret = this.need(capability, resources.unsubscribeSecret);
        secret.grantRead(fn);
        return { unsubscribeSecretArn: secret.secretArn };
      }
      default: {
        // A capability added to functions/routes.ts needs its grant here.
        const unknown: never = capability;
        throw new Error(`${this.node.path}: no grant for capability '${String(unknown)}'`);
      }
    }
  }

  private need<T>(declared: Capability | Setting, resource: T | undefined): T {
    if (resource === undefined) throw new Error(`${this.node.path} declares '${declared}', which its stack does not offer`);
    return resource;
  }
}
