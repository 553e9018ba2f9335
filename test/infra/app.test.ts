import { spawnSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiThrottles, peakLoad, THROTTLE_HEADROOM } from '../../functions/api-throttles.js';
import {
  COGNITO_TRIGGERS,
  DEPLOY_FUNCTIONS,
  DEFAULT_SECRET_MAX_AGE_SECONDS,
  ENV,
  EVENT_RULES,
  HTTP_ROUTE_GROUPS,
  QUEUE_CONSUMERS,
  RECURRING_SCHEDULES,
  SCHEDULE_TARGETS,
  STREAM_CONSUMERS,
  TOPIC_CONSUMERS,
  WEBSOCKET_API,
  CAPABILITY_GRANTS,
  LOCAL_ONLY_VARIABLES,
  declaredEnvironment,
  RECONCILIATION_METRIC,
  OVERDUE_DECISIONS_METRIC,
  type EnvKey,
  type FunctionDeclaration,
} from '../../functions/routes.js';
import { STRIPE_CLIENT_LIMITS } from '../../functions/lib/stripe.js';
import { handler as accountsHandler } from '../../functions/people/http/accounts.js';
import { UPLOAD_STATE_TAG } from '../../functions/lib/images.js';
import { TABLE_DESIGN } from '../../functions/table.js';
import { MSG } from '../../shared/messages.js';
import { ADMIN_GROUP } from '../../shared/roles.js';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
import { RecurringSchedule } from '../../infra/constructs/recurring-schedule.js';
import { DeadLetterQueue } from '../../infra/constructs/dead-letter-queue.js';
import { deadLetterQueuePrefix } from '../../infra/constructs/names.js';
import { DEAD_LETTER_QUEUES, type DeadLetterSource } from '../../infra/dead-letter-queues.js';
import { redrive } from '../../infra/redrive.js';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';

import { AppFunction, configurationSetArn, FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS, senderIdentityArns } from '../../infra/constructs/app-function.js';
import { REPO_ROOT } from '../../infra/constructs/repo.js';
import { SITE_HEADER_CSP, STRIPE_JS_SOURCES } from '../../infra/constructs/content-security-policy.js';
import { API_PATH, SITE_REQUEST_FUNCTION_CODE } from '../../infra/constructs/site-request.js';
import { buildApp, type OddJobsAppOptions, type OddJobsStacks } from '../../infra/stacks/build-app.js';
import { NON_HTTP_DECLARATIONS } from '../support/routes.js';
import { USER_POOL_SETTINGS } from '../../infra/user-pool-settings.js';
import { Topic } from 'aws-cdk-lib/aws-sns';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { OperationalAlarms } from '../../infra/constructs/alarms.js';
import { TOPIC_PUBLISHERS, topicPublishStatement, type TopicPublisher } from '../../infra/topic-policies.js';

/** The values a deploy must pass (the test app gives them as options, a deploy as context). */
const REQUIRED_SETTINGS = { stripePublishableKey: 'pk_test_infra', adminEmail: 'owner@example.com' };

/** `new App()` ignores cdk.json; the tests synthesize with the same feature flags as the CLI. */
const CDK_CONTEXT = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;

// Synthesized templates are untyped JSON; the assertions below say what they expect of it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resource = { Type: string; Properties: any; DeletionPolicy?: string; DependsOn?: string[] };

/**
 * What Lambda itself does with a function's role, besides what its code calls: write its log
 * group, and read its event source (its queue, the table's stream) or send to its dead-letter queue
 * (a rule's, a stream consumer's, a schedule target's failed invocations).
 */
const platformActionsOf = (declaration: FunctionDeclaration): string[] => {
  const among = (declarations: Record<string, FunctionDeclaration>) => Object.values(declarations).includes(declaration);
  const deadLetters = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
  return [
    'logs:CreateLogStream',
    'logs:PutLogEvents',
    ...(among(QUEUE_CONSUMERS) ? ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'] : []),
    ...(among(STREAM_CONSUMERS) ? ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams', ...deadLetters] : []),
    ...(among(EVENT_RULES) || among(SCHEDULE_TARGETS) || among(RECURRING_SCHEDULES) || among(TOPIC_CONSUMERS) ? deadLetters : []),
  ];
};

const routeGroups = Object.values(HTTP_ROUTE_GROUPS);
const declaredRoutes = routeGroups.flatMap((group) => Object.entries(group.routes).map(([routeKey, access]) => ({ group, routeKey, access })));
const allDeclarations = [...routeGroups, ...NON_HTTP_DECLARATIONS];

/** A second deployment beside the first: another stage, with every optional setting given. */
const VARIANT = {
  stage: 'staging',
  alarmEmail: 'ops@example.com',
  sesFromAddress: 'no-reply@mail.example.com',
  domainName: 'jobs.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
  resendAdminInvitation: '2026-11-26',
  lambdaConcurrencyQuota: 5000,
  autoReleaseHours: 24,
} satisfies OddJobsAppOptions;

let tempDir: string;
let app: App;
let variantStacks: OddJobsStacks | undefined;
let stacks: OddJobsStacks;
let assembly: CloudAssembly;
let functions: AppFunction[];

const template = (stack: Stack) => Template.fromStack(stack);
const resourcesOf = (stack: Stack, type: string) => template(stack).findResources(type) as Record<string, Resource>;
/** The logical id of a construct's CloudFormation resource. */
const cfnId = (construct: IConstruct) => {
  const element = (CfnElement.isCfnElement(construct) ? construct : construct.node.defaultChild) as CfnElement;
  return Stack.of(element).getLogicalId(element);
};
/** The functions built from the handler module `entry`. */
/** A value as the template of `scope`'s stack has it: a resource of another stack as the import of its export. */
const referenceIn = (scope: IConstruct, value: string): unknown => Stack.of(scope).resolve(value);
/** Declarations in the order of their entry paths, so that a check of several does not depend on where their files are. */
const byEntry = (a: FunctionDeclaration, b: FunctionDeclaration) => a.entry.localeCompare(b.entry);
const functionsFor = (entry: string) => functions.filter((fn) => fn.declaration.entry === entry);
const lambdaOf = (fn: AppFunction): Resource =>
  template(Stack.of(fn)).toJSON().Resources[cfnId(fn.function)];
const ref = (id: string) => ({ Ref: id });
/** The staged asset folders a bucket deployment uploads. */
const stagedFolders = (deployment: Resource) =>
  readdirSync(assembly.directory)
    .filter((entry) => entry.startsWith('asset.') && JSON.stringify(deployment.Properties.SourceObjectKeys).includes(entry.slice('asset.'.length)))
    .map((entry) => join(assembly.directory, entry));
/** Every file a bucket deployment uploads, by its path in the bucket. */
const stagedFiles = (deployment: Resource) => stagedFolders(deployment).flatMap((folder) => readdirSync(folder, { recursive: true }).map(String));
/** One file a bucket deployment uploads, as staged (deploy-time values are still markers). */
const staged = (deployment: Resource, file: string) =>
  readFileSync(stagedFolders(deployment).map((folder) => join(folder, file)).find((path) => existsSync(path))!, 'utf8');
const getAttArn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
/** A content security policy's directives and their sources. */
const parsePolicy = (policy: string): Record<string, string[]> =>
  Object.fromEntries(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );

beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'oddjobs-infra-test-'));
  const webDist = join(tempDir, 'web-dist');
  mkdirSync(webDist);
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><head><title>Odd jobs</title></head><body></body></html>');
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'index-Bx7c9A1f.js'), 'console.log("odd jobs")');
  writeFileSync(join(webDist, 'assets', 'index-Bx7c9A1f.js.map'), '{"version":3}');
  writeFileSync(join(webDist, 'favicon.svg'), '<svg/>');

  app = new App({ context: CDK_CONTEXT, outdir: join(tempDir, 'cdk.out') });
  stacks = buildApp(app, { webDistDir: webDist, ...REQUIRED_SETTINGS });
  // Runs every validation plugin, cdk-nag's AWS Solutions checks included; in tests an
  // unacknowledged error makes synth throw with the full report.
  assembly = app.synth();
  functions = app.node.findAll().filter((construct): construct is AppFunction => construct instanceof AppFunction);
}, 600_000);

/** The VARIANT deployment, synthesized once when a test first reads it (without bundling: its templates are what is read). */
function variant(): OddJobsStacks {
  if (!variantStacks) {
    const variantApp = new App({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] }, outdir: join(tempDir, 'variant.out') });
    variantStacks = buildApp(variantApp, { webDistDir: join(tempDir, 'web-dist'), ...REQUIRED_SETTINGS, ...VARIANT });
    variantApp.synth();
  }
  return variantStacks;
}

afterAll(() => {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

describe('compliance', () => {
  it('leaves no cdk-nag finding unacknowledged, error or warning', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.constructPath}`),
    );
    expect(findings).toEqual([]);
  });

  it('synthesizes with an empty validation report (cdk-nag, CloudFormation rules, annotations)', () => {
    const reportFile = join(assembly.directory, 'validation-report.json');
    const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : { pluginReports: [] };
    expect(report.pluginReports.flatMap((plugin: { violations?: unknown[] }) => plugin.violations ?? [])).toEqual([]);
  });
});

describe('functions', () => {
  it('builds one function per declaration, on Node.js 22 and arm64, logging JSON', () => {
    expect(functions.map((fn) => fn.declaration.entry).sort()).toEqual(allDeclarations.map((declaration) => declaration.entry).sort());
    for (const fn of functions) {
      expect(lambdaOf(fn).Properties, fn.declaration.entry).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogFormat: 'JSON', LogGroup: expect.anything() },
        MemorySize: fn.declaration.memoryMiB ?? 256,
        Timeout: fn.declaration.timeoutSeconds ?? 10,
      });
      // Tracing off, not half on (docs/decisions/0110-no-x-ray.md).
      expect(lambdaOf(fn).Properties.TracingConfig, fn.declaration.entry).toBeUndefined();
    }
  });

  it('never sets LOCAL_JWKS_URI (local stack only)', () => {
    for (const stack of Object.values(stacks)) {
      for (const [id, lambda] of Object.entries(resourcesOf(stack, 'AWS::Lambda::Function'))) {
        expect(Object.keys(lambda.Properties.Environment?.Variables ?? {}), id).not.toContain(ENV.localJwksUri);
      }
    }
  });

  it('gives each function exactly the environment its declaration names, the one the local stack gives it too', () => {
    for (const fn of functions) {
      const variables = Object.keys(lambdaOf(fn).Properties.Environment.Variables).sort();
      expect(variables, fn.declaration.entry).toEqual(['NODE_OPTIONS', ...declaredEnvironment(fn.declaration).map((key) => ENV[key])].sort());
    }
  });

  it('gives each function every variable its bundled code reads (the local stack sets only its own stand-ins besides)', async () => {
    const entries = [...new Set(allDeclarations.map((declaration) => declaration.entry))];
    const { metafile, outputFiles } = await build({
      ...FUNCTION_ESBUILD_OPTIONS,
      entryPoints: entries.map((entry) => join(REPO_ROOT, entry)),
      outdir: join(tempDir, 'environment-bundles'),
      write: false,
      metafile: true,
      sourcemap: false,
      logLevel: 'silent',
    });
    const localOnly: readonly EnvKey[] = LOCAL_ONLY_VARIABLES;
    // A read is a call with the variable's ENV key, env('tableName') or optionalEnv('siteOrigin'),
    // which minifying keeps as a string literal; tree shaking left only the code the function can run.
    const readsOf = (entry: string) => {
      const [output] = Object.entries(metafile.outputs).find(([, meta]) => meta.entryPoint === entry)!;
      const code = outputFiles.find((file) => file.path === resolve(output))!.text;
      return (Object.keys(ENV) as EnvKey[]).filter((key) => new RegExp(`\\("${key}"[,)]`).test(code));
    };
    const reads = new Map(entries.map((entry) => [entry, readsOf(entry)]));
    expect(reads.get(HTTP_ROUTE_GROUPS.admin.entry)).toContain('imagesBaseUrl');
    for (const fn of functions) {
      const given = Object.keys(lambdaOf(fn).Properties.Environment.Variables);
      const missing = reads.get(fn.declaration.entry)!.filter((key) => !localOnly.includes(key) && !given.includes(ENV[key]));
      expect(missing, `${fn.declaration.entry} reads variables it is not given`).toEqual([]);
    }
  }, 60_000);

  it('grants each function exactly the actions of its capabilities (CAPABILITY_GRANTS, which the local stack enforces), besides what its event source and logs need', () => {
    const managedPolicies = resourcesOf(stacks.data, 'AWS::IAM::ManagedPolicy');
    const actionsOf = (statements: Array<{ Action: string | string[] }>) => statements.flatMap((statement) => [statement.Action].flat());
    for (const fn of functions) {
      const stack = Stack.of(fn);
      const roleId = cfnId(fn.role);
      const role = template(stack).toJSON().Resources[roleId] as Resource;
      const attached = JSON.stringify(role.Properties.ManagedPolicyArns ?? []);
      const granted = new Set([
        ...Object.values(resourcesOf(stack, 'AWS::IAM::Policy'))
          .filter((policy) => (policy.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(ref(roleId))))
          .flatMap((policy) => actionsOf(policy.Properties.PolicyDocument.Statement)),
        ...Object.entries(managedPolicies)
          .filter(([id]) => attached.includes(id))
          .flatMap(([, policy]) => actionsOf(policy.Properties.PolicyDocument.Statement)),
      ]);
      // Without a sender (no -c sesFromAddress) the mailer may send nothing: 'notification email' checks the grant with one.
      const capabilities = fn.declaration.capabilities.filter((capability) => capability !== 'mail:send');
      const declared = new Set<string>(capabilities.flatMap((capability) => CAPABILITY_GRANTS[capability].actions));
      const platform = [...granted].filter((action) => !declared.has(action));
      expect([...declared].filter((action) => !granted.has(action)), `${fn.declaration.entry}: declared, not granted`).toEqual([]);
      expect(platform.filter((action) => !platformActionsOf(fn.declaration).includes(action)), `${fn.declaration.entry}: granted, not declared`).toEqual([]);
    }
  });

  it('grants the data capabilities through the data stack\'s managed policies, with no Scan', () => {
    const policies = resourcesOf(stacks.data, 'AWS::IAM::ManagedPolicy');
    const actions = Object.values(policies).flatMap((policy) =>
      policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => statement.Action),
    );
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions.filter((action: string) => action.includes('*'))).toEqual([]);
    for (const fn of functions) {
      const role = template(Stack.of(fn)).toJSON().Resources[cfnId(fn.role)] as Resource;
      const dataCapabilities = fn.declaration.capabilities.filter((capability) => /^(table|images):/.test(capability));
      expect(role.Properties.ManagedPolicyArns ?? [], fn.declaration.entry).toHaveLength(dataCapabilities.length);
    }
  });

  it('lets the WebSocket authorizer verify ID tokens of the pool and client', () => {
    const [authorizer] = functionsFor(WEBSOCKET_API.authorizer.entry);
    expect(Object.keys(lambdaOf(authorizer!).Properties.Environment.Variables)).toEqual(
      expect.arrayContaining([ENV.userPoolId, ENV.userPoolClientId, ENV.tokenIssuer]),
    );
  });
});

describe('data stack', () => {
  it('builds the one table from TABLE_DESIGN, kept and recoverable', () => {
    const tables = Object.values(resourcesOf(stacks.data, 'AWS::DynamoDB::GlobalTable'));
    expect(tables).toHaveLength(1);
    const [table] = tables;
    expect(table!.DeletionPolicy).toBe('RetainExceptOnCreate');
    const indexes = Object.entries(TABLE_DESIGN.indexes);
    expect(table!.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_DESIGN.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_DESIGN.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: TABLE_DESIGN.timeToLiveAttribute, Enabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
      Replicas: [{ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true }],
    });
    expect(table!.Properties.GlobalSecondaryIndexes).toEqual(
      indexes.map(([IndexName, index]) => ({
        IndexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
  });

  it('keeps the job images private, logged and TLS-only, with browser uploads allowed', () => {
    const imagesId = cfnId(stacks.data.imagesBucket);
    const bucket = resourcesOf(stacks.data, 'AWS::S3::Bucket')[imagesId]!;
    expect(bucket.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: expect.anything() },
      LifecycleConfiguration: { Rules: expect.arrayContaining([{ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }]) },
      CorsConfiguration: { CorsRules: [expect.objectContaining({ AllowedMethods: ['PUT', 'POST'] })] },
    });
    template(stacks.data).hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: ref(imagesId),
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('images bucket', () => {
  it('keeps old versions of images for a while, then expires them', () => {
    const bucket = resourcesOf(stacks.data, 'AWS::S3::Bucket')[cfnId(stacks.data.imagesBucket)]!;
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 30 }, ExpiredObjectDeleteMarker: true }),
    );
  });

  it('expires uploads that no job or profile took', () => {
    const bucket = resourcesOf(stacks.data, 'AWS::S3::Bucket')[cfnId(stacks.data.imagesBucket)]!;
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual({
      Status: 'Enabled',
      Prefix: 'uploads/',
      TagFilters: [{ Key: UPLOAD_STATE_TAG.key, Value: UPLOAD_STATE_TAG.unattached }],
      ExpirationInDays: 2,
    });
  });
});

describe('auth stack', () => {
  it('signs users in by email, verified, with a name; the role is not theirs to write', () => {
    const pool = Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPool'))[0]!;
    expect(pool.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      DeletionProtection: 'ACTIVE',
      Policies: { PasswordPolicy: { MinimumLength: 8 } },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
    expect(pool.Properties.Schema).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Name: 'name', Required: true }),
        expect.objectContaining({ Name: 'role', AttributeDataType: 'String', Mutable: true }),
      ]),
    );
    template(stacks.auth).hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: ADMIN_GROUP });
    const client = Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPoolClient'))[0]!;
    expect(client.Properties.GenerateSecret).toBe(false);
    expect([...client.Properties.ExplicitAuthFlows].sort()).toEqual([...USER_POOL_SETTINGS.clientAuthFlows].sort());
    expect(client.Properties.ExplicitAuthFlows).not.toContain('ALLOW_USER_PASSWORD_AUTH');
    // Users cannot rewrite their role (sign-up sends it as client metadata) or their verification.
    expect([...client.Properties.WriteAttributes].sort()).toEqual(['email', 'name']);
    expect(client.Properties.ReadAttributes).toContain('email_verified');
    expect(client.Properties.ReadAttributes).not.toContain('custom:role');
    expect(pool.Properties.UserAttributeUpdateSettings).toEqual({ AttributesRequireVerificationBeforeUpdate: ['email'] });
  });

  it('mails a code to verify an address and to reset a password, with the text the local mailbox shows, and the sign-in hint asks for that code', () => {
    const pool = Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPool'))[0]!;
    const { subject, body } = USER_POOL_SETTINGS.verificationEmail;
    expect(pool.Properties.VerificationMessageTemplate).toEqual({ DefaultEmailOption: 'CONFIRM_WITH_CODE', EmailSubject: subject, EmailMessage: body, SmsMessage: expect.any(String) });
    expect(pool.Properties).toMatchObject({ EmailVerificationSubject: subject, EmailVerificationMessage: body });
    expect(body).toContain('{####}');
    const hint = MSG.signInErrors.find((error) => error.contains === 'email not confirmed')!.text;
    expect(hint).toContain('verification code');
    expect(hint).not.toContain('link');
  });

  it('wires every declared trigger to its function', () => {
    const pool = Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPool'))[0]!;
    const expected = Object.fromEntries(
      Object.entries(COGNITO_TRIGGERS).map(([operation, declaration]) => [
        operation.charAt(0).toUpperCase() + operation.slice(1),
        getAttArn(cfnId(functionsFor(declaration.entry)[0]!.function)),
      ]),
    );
    expect(pool.Properties.LambdaConfig).toEqual(expected);
  });

  it('lets the admin-group triggers add users to groups, outside the role\'s default policy', () => {
    const poolId = cfnId(stacks.auth.userPool);
    const adminGroupFunctions = functions.filter((fn) => fn.declaration.capabilities.includes('userpool:admin-group'));
    expect(adminGroupFunctions.length).toBeGreaterThan(0);
    for (const fn of adminGroupFunctions) {
      const roleId = cfnId(fn.role);
      const policies = Object.entries(resourcesOf(Stack.of(fn), 'AWS::IAM::Policy')).filter(([, policy]) =>
        policy.Properties.PolicyDocument.Statement.some(
          (statement: { Action: string }) => statement.Action === 'cognito-idp:AdminAddUserToGroup',
        ),
      );
      expect(policies).toHaveLength(1);
      const [policyId, policy] = policies[0]!;
      expect(policyId).not.toMatch(/DefaultPolicy/);
      expect(policy.Properties.Roles).toEqual([ref(roleId)]);
      expect(policy.Properties.PolicyDocument.Statement[0].Resource).toEqual(getAttArn(poolId));
    }
  });
});

describe('api stack', () => {
  it('builds one function per route group and adds each declared route once, on its group\'s function, in the routes\' stack', () => {
    const routesStack = template(stacks.httpRoutes).toJSON().Resources as Record<string, Resource>;
    const httpRoutes = Object.values(routesStack).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    expect(JSON.stringify(httpRoutes.map((route) => route.Properties.ApiId))).toContain(cfnId(stacks.site.httpApi));
    expect(httpRoutes.map((route) => route.Properties.RouteKey).sort()).toEqual(declaredRoutes.map(({ routeKey }) => routeKey).sort());
    expect(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Route')).not.toHaveProperty(declaredRoutes[0]!.routeKey);

    for (const group of routeGroups) expect(functionsFor(group.entry), group.entry).toHaveLength(1);
    for (const { group, routeKey } of declaredRoutes) {
      const route = httpRoutes.find((r) => r.Properties.RouteKey === routeKey)!;
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
      const functionId = cfnId(functionsFor(group.entry)[0]!.function);
      // The function's ARN, imported from the api stack.
      expect(JSON.stringify(routesStack[integrationId]!.Properties.IntegrationUri), routeKey).toContain(functionId);
    }
    // API Gateway may invoke each group's function, from this API only: one permission a function, not a route.
    const permissions = Object.values(routesStack).filter((r) => r.Type === 'AWS::Lambda::Permission');
    for (const group of routeGroups) {
      const functionId = cfnId(functionsFor(group.entry)[0]!.function);
      const granted = permissions.filter((permission) => JSON.stringify(permission.Properties.FunctionName).includes(functionId));
      expect(granted, group.entry).toHaveLength(1);
      expect(granted[0]!.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(granted[0]!.Properties.SourceArn)).toContain(cfnId(stacks.site.httpApi));
      expect(JSON.stringify(granted[0]!.Properties.SourceArn)).toContain('/*/*/*');
    }
    expect(permissions).toHaveLength(routeGroups.length);
  });

  it('puts the JWT authorizer on exactly the routes that are not public', () => {
    const authorizers = Object.entries(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Authorizer')).filter(
      ([, authorizer]) => authorizer.Properties.AuthorizerType === 'JWT',
    );
    expect(authorizers).toHaveLength(1);
    const [jwtAuthorizerId, jwtAuthorizer] = authorizers[0]!;
    expect(jwtAuthorizer.Properties.IdentitySource).toEqual(['$request.header.Authorization']);
    expect(JSON.stringify(jwtAuthorizer.Properties.JwtConfiguration.Issuer)).toMatch(/https:\/\/.*ProviderURL/);
    expect(JSON.stringify(jwtAuthorizer.Properties.JwtConfiguration.Audience)).toMatch(/UserPoolWebClient/);

    const routes = Object.values(resourcesOf(stacks.httpRoutes, 'AWS::ApiGatewayV2::Route'));
    for (const { routeKey, access } of declaredRoutes) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey)!;
      if (access === 'public') {
        expect(route.Properties.AuthorizationType, routeKey).toBe('NONE');
        expect(route.Properties.AuthorizerId, routeKey).toBeUndefined();
      } else {
        expect(route.Properties.AuthorizationType, routeKey).toBe('JWT');
        // The api stack's authorizer, through its export.
        expect(JSON.stringify(route.Properties.AuthorizerId), routeKey).toContain(jwtAuthorizerId);
      }
    }
  });

  it('logs and throttles the HTTP API, which answers no CORS preflight: pages call it on their own origin', () => {
    // Made bare in the site stack, whose distribution fronts it; its stage is the api stack's.
    const [httpApi, ...others] = Object.values(resourcesOf(stacks.site, 'AWS::ApiGatewayV2::Api'));
    expect(others).toEqual([]);
    expect(httpApi!.Properties.ProtocolType).toBe('HTTP');
    expect(httpApi!.Properties).not.toHaveProperty('CorsConfiguration');
    expect(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Api')).not.toHaveProperty(cfnId(stacks.site.httpApi));
    template(stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { 'Fn::ImportValue': Match.stringLikeRegexp(cfnId(stacks.site.httpApi)) },
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.integration.requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: apiThrottles().http.default.rateLimit, ThrottlingBurstLimit: apiThrottles().http.default.burstLimit },
    });
  });

  it('throttles each route for what a million users send at their peak, three times over, a mass reconnect included (the local gateways enforce the same)', () => {
    const stages = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage'));
    expect(stages.length).toBe(2);
    const settingsOf = (stageName: string) => stages.find((stage) => stage.Properties.StageName === stageName)!.Properties;
    const rateOf = (settings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }) => {
      // A burst of two seconds' worth: a page's requests, a reconnect's subscribe, come together.
      expect(settings.ThrottlingBurstLimit).toBe(settings.ThrottlingRateLimit * 2);
      return settings.ThrottlingRateLimit;
    };
    const peak = peakLoad(1_000_000);
    // HTTP: every route's bucket holds the busiest route's peak (GET /jobs, ~111 rps).
    expect(rateOf(settingsOf('$default').DefaultRouteSettings)).toBeGreaterThanOrEqual(Math.max(...Object.values(peak.routesPerSecond)) * THROTTLE_HEADROOM);
    // WebSocket: $connect takes a mass reconnect at the account's pace (500 new connections a
    // second); $default, every message, the browsers' subscribes, unsubscribes and pings (~306 a
    // second) and a reconnecting socket's subscribe. A stage default of 100 rps held neither.
    const live = settingsOf('live');
    expect(rateOf(live.RouteSettings.$connect)).toBeGreaterThanOrEqual(Math.max(peak.connectsPerSecond * THROTTLE_HEADROOM, peak.reconnectsPerSecond));
    expect(rateOf(live.RouteSettings.$default)).toBeGreaterThanOrEqual(peak.socketMessagesPerSecond * THROTTLE_HEADROOM + peak.reconnectsPerSecond);
    expect({ DefaultRouteSettings: live.DefaultRouteSettings, RouteSettings: live.RouteSettings }).toEqual({
      DefaultRouteSettings: expect.objectContaining({ ThrottlingRateLimit: apiThrottles().webSocket.default.rateLimit }),
      RouteSettings: Object.fromEntries(
        Object.entries(apiThrottles().webSocket.routes!).map(([route, { rateLimit, burstLimit }]) => [route, { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit }]),
      ),
    });
    // A stage may name only routes that exist: CloudFormation makes them first.
    const liveId = Object.entries(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage')).find(([, stage]) => stage.Properties.StageName === 'live')![0];
    const routeKeysOf = (ids: string[]) => ids.map((id) => resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Route')[id]?.Properties.RouteKey).filter(Boolean);
    expect(routeKeysOf(template(stacks.api).toJSON().Resources[liveId].DependsOn ?? []).sort()).toEqual(['$connect', '$default']);
  });

  it('throttles for the planned size a deploy gives (-c plannedUsers)', () => {
    expect(apiThrottles(5_000_000).webSocket.routes!.$default!.rateLimit).toBeGreaterThan(apiThrottles().webSocket.routes!.$default!.rateLimit);
    expect(apiThrottles(10_000)).toEqual({
      http: { default: { rateLimit: 100, burstLimit: 200 } },
      webSocket: { default: { rateLimit: 100, burstLimit: 200 }, routes: { $connect: { rateLimit: 100, burstLimit: 200 }, $default: { rateLimit: 100, burstLimit: 200 } } },
    });
  });

  it('logs every WebSocket connect, message and disconnect, with the account\'s own API Gateway role (not this app\'s)', () => {
    template(stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'live',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('connectionId') },
    });
    for (const stack of Object.values(stacks)) expect(resourcesOf(stack, 'AWS::ApiGateway::Account'), stack.stackName).toEqual({});
  });

  it('admits WebSocket connections on $connect with the token query parameter', () => {
    const routes = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Route'));
    const authorizerEntries = Object.entries(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Authorizer')).filter(
      ([, authorizer]) => authorizer.Properties.AuthorizerType === 'REQUEST',
    );
    expect(authorizerEntries).toHaveLength(1);
    const [authorizerId, authorizer] = authorizerEntries[0]!;
    expect(authorizer.Properties.IdentitySource).toEqual([`route.request.querystring.${WEBSOCKET_API.identityQueryParameter}`]);
    const authorizerFunctionId = cfnId(functionsFor(WEBSOCKET_API.authorizer.entry)[0]!.function);
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(authorizerFunctionId);

    for (const routeKey of WEBSOCKET_API.routes) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey)!;
      if (routeKey === '$connect') expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: ref(authorizerId) });
      else expect(route.Properties.AuthorizationType, routeKey).toBe('NONE');
    }
  });

  it('lets the functions that push to browsers manage the WebSocket stage\'s connections', () => {
    const pushers = functions.filter((fn) => fn.declaration.capabilities.includes('sockets:push'));
    expect(pushers.length).toBeGreaterThan(0);
    for (const fn of pushers) {
      const roleId = cfnId(fn.role);
      const statements = Object.values(resourcesOf(Stack.of(fn), 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref(roleId)]))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
      const manage = statements.find((statement: { Action: string }) => statement.Action === 'execute-api:ManageConnections');
      expect(JSON.stringify(manage?.Resource), fn.declaration.entry).toMatch(/\/live\/\*\/@connections\/\*/);
    }
  });

  it("lets exactly the users group disable, enable, sign out and reset the password of the pool's users, and tells it the pool", () => {
    const managers = functions.filter((fn) => fn.declaration.capabilities.includes('userpool:manage-users'));
    expect(managers.map((fn) => fn.declaration.entry)).toEqual([HTTP_ROUTE_GROUPS.users.entry]);
    const [users] = managers;
    const statements = Object.values(resourcesOf(Stack.of(users!), 'AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(cfnId(users!.role)))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    const userAdmin = statements.find((statement) => [statement.Action].flat().includes('cognito-idp:AdminDisableUser'))!;
    expect([userAdmin.Action].flat().sort()).toEqual(
      ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser', 'cognito-idp:AdminResetUserPassword', 'cognito-idp:AdminUserGlobalSignOut'].sort(),
    );
    // The pool's ARN, from the auth stack: this pool only.
    expect(JSON.stringify(userAdmin.Resource)).toContain('UserPool');
    expect(JSON.stringify(userAdmin.Resource)).not.toContain('*');
    expect(lambdaOf(users!).Properties.Environment.Variables[ENV.userPoolId]).toBeDefined();
  });

  it('lets the geocoding functions search the place index, whose results may be stored', () => {
    template(stacks.api).hasResourceProperties('AWS::Location::PlaceIndex', { DataSourceConfiguration: { IntendedUse: 'Storage' } });
    const geocoders = functions.filter((fn) => fn.declaration.capabilities.includes('geocoding'));
    for (const fn of geocoders) {
      template(Stack.of(fn)).hasResourceProperties('AWS::IAM::Policy', {
        Roles: [ref(cfnId(fn.role))],
        PolicyDocument: {
          Statement: Match.arrayWith([
            {
              Action: ['geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForText'],
              Effect: 'Allow',
              Resource: referenceIn(fn, stacks.api.placeIndex.attrIndexArn),
            },
          ]),
        },
      });
    }
  });

  it("keeps the zip table, the Stripe and S3 SDKs and the SDK's credential chain past the environment out of every bundle, and gives each function that reaches the geocoder the place index", async () => {
    const entries = [...new Set(allDeclarations.map((declaration) => declaration.entry))];
    const { metafile } = await build({
      ...FUNCTION_ESBUILD_OPTIONS,
      entryPoints: entries.map((entry) => join(REPO_ROOT, entry)),
      outdir: join(tempDir, 'bundles'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = Object.values(metafile.outputs);
    const credentialChainPastEnvironment = ['node', 'ini', 'sso', 'process', 'web-identity', 'http', 'login'].map((link) => `@aws-sdk/credential-provider-${link}`);
    const leftOut = [...FUNCTION_BUNDLE.external, ...credentialChainPastEnvironment, '@aws-sdk/nested-clients'].map((module) => `node_modules/${module}/`);
    expect(outputs.flatMap((output) => Object.keys(output.inputs)).filter((input) => leftOut.some((path) => input.includes(path)))).toEqual([]);
    const reachingGeocoder = outputs.filter((output) => 'functions/lib/geocoder.ts' in output.inputs).map((output) => output.entryPoint);
    expect(reachingGeocoder.length).toBeGreaterThan(0);
    for (const entry of reachingGeocoder) {
      for (const fn of functionsFor(entry!)) expect(lambdaOf(fn).Properties.Environment.Variables).toHaveProperty(ENV.placeIndexName);
    }
  }, 60_000);

  it("signs the bundles' AWS calls with the execution role's keys from the environment, as Lambda provides them", async () => {
    // The CDK applied the alias: no function's asset holds the SSO provider of the default chain.
    const assets = new Set(functions.map((fn) => String(lambdaOf(fn).Properties.Code.S3Key).replace(/\.zip$/, '')));
    for (const asset of assets) expect(readFileSync(join(assembly.directory, `asset.${asset}`, 'index.mjs'), 'utf8')).not.toContain('sso_start_url');
    const entry = join(tempDir, 'credentials-probe.ts');
    writeFileSync(entry, "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nconsole.log(JSON.stringify(await new DynamoDBClient({}).config.credentials()));\n");
    const outfile = join(REPO_ROOT, 'node_modules', '.cache', 'oddjobs-credentials-probe.mjs');
    await build({ ...FUNCTION_ESBUILD_OPTIONS, entryPoints: [entry], outfile, nodePaths: [join(REPO_ROOT, 'node_modules')], logLevel: 'silent' });
    const lambdaEnvironment = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'ASIAPROBE', AWS_SECRET_ACCESS_KEY: 'probe-secret', AWS_SESSION_TOKEN: 'probe-token' };
    const run = spawnSync(process.execPath, [outfile], { encoding: 'utf8', env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...lambdaEnvironment } });
    for (const file of [outfile, `${outfile}.map`]) rmSync(file, { force: true });
    expect(JSON.parse(run.stdout)).toMatchObject({ accessKeyId: 'ASIAPROBE', secretAccessKey: 'probe-secret', sessionToken: 'probe-token' });
  });

  it('puts each SDK a bundle imports beside it, where Lambda\'s Node finds it from /var/task; Stripe and S3 work from there', async () => {
    const assetOf = (fn: AppFunction) => join(assembly.directory, `asset.${String(lambdaOf(fn).Properties.Code.S3Key).replace(/\.zip$/, '')}`);
    // Every package a bundle imports, statically or on first use (as esbuild reads the bundle),
    // except Node's own modules and the zip table (reached only without a place index, which
    // every AWS geocoding function has).
    const importedPackages = async (file: string) => {
      const { metafile } = await build({ entryPoints: [file], bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
      return Object.values(metafile.inputs)
        .flatMap((input) => input.imports.filter((imported) => imported.external).map((imported) => imported.path))
        .filter((name) => !isBuiltin(name) && name !== 'zipcodes');
    };
    const installedPackages = (asset: string) =>
      existsSync(join(asset, 'node_modules'))
        ? readdirSync(join(asset, 'node_modules')).flatMap((name) => (name.startsWith('@') ? readdirSync(join(asset, 'node_modules', name)).map((scoped) => `${name}/${scoped}`) : [name]))
        : [];
    // A string only each SDK's own code holds: what the CDK bundled into a function, not beside it.
    const sdkMarkers = ['api.stripe.com', 'S3ServiceException'];
    for (const fn of functions) {
      const asset = assetOf(fn);
      const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');
      for (const marker of sdkMarkers) expect(bundle.includes(marker), `${fn.declaration.entry} bundles ${marker}`).toBe(false);
      const installed = installedPackages(asset);
      expect(installed, fn.declaration.entry).toEqual(expect.arrayContaining(await importedPackages(join(asset, 'index.mjs'))));
      // What is bundled beside a function imports only what is bundled beside it too.
      for (const name of installed) expect(installed, `${fn.declaration.entry}: ${name}`).toEqual(expect.arrayContaining(await importedPackages(join(asset, 'node_modules', name, 'index.js'))));
    }
    const callingBoth = functions.find((fn) => fn.declaration.capabilities.includes('stripe') && fn.declaration.capabilities.includes('images:write'))!;
    expect(callingBoth).toBeDefined();
    const besideIt = (module: string) => readFileSync(join(assetOf(callingBoth), 'node_modules', module, 'index.js'), 'utf8');
    expect([besideIt('stripe'), besideIt('@aws-sdk/client-s3')].map((code, i) => code.includes(sdkMarkers[i]!))).toEqual([true, true]);
    // The presigned POST shares the S3 client's module instead of carrying its own copy.
    expect(besideIt('@aws-sdk/s3-presigned-post')).toMatch(/from"@aws-sdk\/client-s3"/);
    expect(besideIt('@aws-sdk/s3-presigned-post')).not.toContain(sdkMarkers[1]);
    // Resolved as Lambda's Node resolves it, with no repository node_modules above.
    const copy = mkdtempSync(join(tmpdir(), 'oddjobs-asset-'));
    cpSync(assetOf(callingBoth), copy, { recursive: true });
    const probe = [
      "const { default: Stripe } = await import('stripe');",
      "const { S3Client } = await import('@aws-sdk/client-s3');",
      "const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');",
      "const post = await createPresignedPost(new S3Client({}), { Bucket: 'images', Key: 'uploads/u/job/k', Expires: 60 });",
      'console.log(JSON.stringify({ stripe: typeof new Stripe("sk_test_asset").paymentIntents.create, url: post.url, signed: Boolean(post.fields["X-Amz-Signature"]) }));',
    ].join('\n');
    const lambdaEnvironment = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'ASIAPROBE', AWS_SECRET_ACCESS_KEY: 'probe-secret', AWS_SESSION_TOKEN: 'probe-token' };
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: copy, encoding: 'utf8', env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...lambdaEnvironment } });
    rmSync(copy, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ stripe: 'function', url: 'https://images.s3.us-east-1.amazonaws.com/', signed: true });
  });

  it('routes each declared event pattern to its function, with retries and a dead-letter queue', () => {
    expect(resourcesOf(stacks.api, 'AWS::Events::Rule')).toEqual({});
    const rules = Object.values(resourcesOf(stacks.events, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(Object.keys(EVENT_RULES).length);
    for (const declaration of Object.values(EVENT_RULES)) {
      const functionId = cfnId(functionsFor(declaration.entry)[0]!.function);
      const rule = rules.find((r) => JSON.stringify(r.Properties.Targets[0].Arn) === JSON.stringify(getAttArn(functionId)))!;
      expect(rule, declaration.entry).toBeDefined();
      expect(rule.Properties.EventBusName).toEqual(referenceIn(stacks.events, stacks.api.eventBus.eventBusName));
      expect(rule.Properties.EventPattern).toEqual(declaration.pattern);
      expect(rule.Properties.Targets).toEqual([
        expect.objectContaining({
          DeadLetterConfig: { Arn: expect.anything() },
          RetryPolicy: { MaximumRetryAttempts: expect.any(Number), MaximumEventAgeInSeconds: expect.any(Number) },
        }),
      ]);
    }
  });
});

describe('auto-release schedules', () => {
  /** The statements of the policies attached to a role of the api or events stack. */
  const statementsOf = (roleId: string) =>
    [stacks.api, stacks.events]
      .flatMap((stack) => Object.values(resourcesOf(stack, 'AWS::IAM::Policy')))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref(roleId)]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Effect: string }>);
  const schedules = () => stacks.api.releaseSchedules;
  /** What `schedules:previous-auto-release` grants: reading and deleting the older group and reading its schedules; listing, which takes no resource. */
  const previousGroupStatements = (fn: AppFunction) => {
    const arn = (resource: string, resourceName: string) => referenceIn(fn, Stack.of(fn).formatArn({ service: 'scheduler', resource, resourceName }));
    return [
      { Action: ['scheduler:DeleteScheduleGroup', 'scheduler:GetScheduleGroup'], Effect: 'Allow', Resource: arn('schedule-group', schedules().previousGroupName) },
      { Action: 'scheduler:GetSchedule', Effect: 'Allow', Resource: arn('schedule', `${schedules().previousGroupName}/*`) },
      { Action: 'scheduler:ListSchedules', Effect: 'Allow', Resource: '*' },
    ];
  };

  it('keeps the schedules in one group that a failed first deploy can create again, invoking the declared target, whose failed invocations wait in a dead-letter queue', () => {
    const group = resourcesOf(stacks.api, 'AWS::Scheduler::ScheduleGroup')[cfnId(schedules().group)]!;
    // No fixed name (CloudFormation names it), kept when the stack goes but not when its creation rolls back.
    expect(group.Properties?.Name).toBeUndefined();
    expect(group).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    expect(schedules().target.declaration).toBe(SCHEDULE_TARGETS.autoRelease);
    template(stacks.api).hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: ref(cfnId(schedules().target.function)),
      DestinationConfig: { OnFailure: { Destination: getAttArn(cfnId(schedules().deadLetterQueue)) } },
    });
  });

  it("gives the scheduler a role it may assume only for this account and the group's ARN (AWS's confused-deputy rule), which may invoke the target and send to its dead-letter queue, nothing else", () => {
    const role = resourcesOf(stacks.api, 'AWS::IAM::Role')[cfnId(schedules().schedulerRole)]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': getAttArn(cfnId(schedules().group)) } },
      },
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(statementsOf(cfnId(schedules().schedulerRole))).toEqual([]);
    expect(role.Properties.Policies.flatMap((policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement)).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: getAttArn(cfnId(schedules().target.function)) },
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: getAttArn(cfnId(schedules().deadLetterQueue)) },
    ]);
  });

  it('lets exactly the functions declaring schedules:auto-release create and delete schedules of the group, and pass the scheduler role only', () => {
    const schedulers = functions.filter((fn) => fn.declaration.capabilities.includes('schedules:auto-release'));
    expect(schedulers.map((fn) => fn.declaration).sort(byEntry)).toEqual([EVENT_RULES.autoReleaseSchedules, DEPLOY_FUNCTIONS.releaseScheduleMove].sort(byEntry));
    for (const fn of functions) {
      const statements = statementsOf(cfnId(fn.role));
      const touching = statements.filter((statement) => [statement.Action].flat().some((action) => /^scheduler:|^iam:PassRole$/.test(action)));
      if (!schedulers.includes(fn)) {
        expect(touching, fn.declaration.entry).toEqual([]);
        continue;
      }
      expect(touching).toEqual([
        { Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], Effect: 'Allow', Resource: referenceIn(fn, schedules().scheduleArns()) },
        { Action: 'iam:PassRole', Effect: 'Allow', Resource: referenceIn(fn, schedules().schedulerRole.roleArn) },
        ...(fn.declaration === DEPLOY_FUNCTIONS.releaseScheduleMove ? previousGroupStatements(fn) : []),
      ]);
      expect(lambdaOf(fn).Properties.Environment.Variables).toMatchObject({
        [ENV.autoReleaseScheduleGroup]: referenceIn(fn, schedules().groupName),
        [ENV.autoReleaseTargetArn]: referenceIn(fn, schedules().target.function.functionArn),
        [ENV.autoReleaseSchedulerRoleArn]: referenceIn(fn, schedules().schedulerRole.roleArn),
        [ENV.autoReleaseDeadLetterQueueArn]: referenceIn(fn, schedules().deadLetterQueue.queueArn),
      });
    }
  });

  it("moves the schedules a deployment older than 28 Nov 2026 left in its group on the upgrade: a custom resource, given that group's name, whose function may only read and delete there", () => {
    // The group as that deployment made it: an L2 ScheduleGroup at this group's path, named from its path.
    const older = new App();
    const olderGroup = new scheduler.ScheduleGroup(new Construct(new Stack(older, stacks.api.node.id), schedules().node.id), 'Group');
    const olderName = Stack.of(olderGroup).resolve(olderGroup.scheduleGroupName) as string;
    expect(schedules().previousGroupName).toBe(olderName);

    const moves = Object.values(resourcesOf(stacks.api, 'Custom::ReleaseScheduleMove'));
    expect(moves).toHaveLength(1);
    expect(moves[0]!.Properties).toMatchObject({ PreviousGroup: olderName, Group: ref(cfnId(schedules().group)) });
    const [move] = functionsFor(DEPLOY_FUNCTIONS.releaseScheduleMove.entry);
    expect(lambdaOf(move!).Properties).toMatchObject({ Timeout: 900, Environment: { Variables: { [ENV.previousAutoReleaseScheduleGroup]: olderName } } });
    // Nothing beyond what the capability declares.
    const granted = statementsOf(cfnId(move!.role)).flatMap((statement) => [statement.Action].flat()).filter((action) => action.startsWith('scheduler:'));
    expect(new Set(granted)).toEqual(new Set([...CAPABILITY_GRANTS['schedules:auto-release'].actions, ...CAPABILITY_GRANTS['schedules:previous-auto-release'].actions].filter((action) => action.startsWith('scheduler:'))));
  });

  it('sets the delay where jobs are completed: 72 hours, or -c autoReleaseHours', () => {
    const completing = (built: OddJobsStacks) =>
      built.api.node.findAll().find((construct): construct is AppFunction => construct instanceof AppFunction && construct.declaration === HTTP_ROUTE_GROUPS.applications)!;
    const delayOf = (built: OddJobsStacks) =>
      (Template.fromStack(Stack.of(completing(built))).toJSON().Resources[cfnId(completing(built).function)] as Resource).Properties.Environment.Variables[ENV.autoReleaseSeconds];
    expect(delayOf(stacks)).toBe(String(72 * 3600));
    expect(delayOf(variant())).toBe(String(24 * 3600));
  });

  it('sets the review publication delay (7 days after the release) where releases are scheduled', () => {
    const scheduling = stacks.events.node.findAll().find((construct): construct is AppFunction => construct instanceof AppFunction && construct.declaration === EVENT_RULES.autoReleaseSchedules)!;
    const variables = (Template.fromStack(Stack.of(scheduling)).toJSON().Resources[cfnId(scheduling.function)] as Resource).Properties.Environment.Variables;
    expect(variables[ENV.reviewPublicationSeconds]).toBe(String(7 * 86_400));
  });
});

describe('every EventBridge Scheduler schedule, as AWS runs it', () => {
  /** Every stack's resources of a type, by logical id, with their stack. */
  const everywhere = (type: string) => Object.values(stacks).flatMap((stack) => Object.entries(resourcesOf(stack, type)).map(([id, resource]) => ({ stack, id, resource })));

  it("trusts Scheduler in every role only for one schedule group's ARN and this account, never a schedule's ARN or a name prefix", () => {
    const schedulerRoles = everywhere('AWS::IAM::Role').filter(({ resource }) => JSON.stringify(resource.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'));
    expect(schedulerRoles.length).toBe(Object.keys(SCHEDULE_TARGETS).length + Object.keys(RECURRING_SCHEDULES).length);
    for (const { stack, id, resource } of schedulerRoles) {
      const groups = Object.keys(resourcesOf(stack, 'AWS::Scheduler::ScheduleGroup'));
      const [statement, ...others] = resource.Properties.AssumeRolePolicyDocument.Statement;
      expect(others, id).toEqual([]);
      expect(Object.keys(statement.Condition), id).toEqual(['StringEquals']);
      expect(statement.Condition.StringEquals['aws:SourceAccount'], id).toEqual({ Ref: 'AWS::AccountId' });
      const sourceArn = statement.Condition.StringEquals['aws:SourceArn'];
      expect(groups.map(getAttArn), id).toContainEqual(sourceArn);
    }
  });

  it('puts every recurring schedule in the group its role trusts, with a dead-letter queue its role may send to and a retry policy', () => {
    const schedules = everywhere('AWS::Scheduler::Schedule');
    expect(schedules.length).toBe(Object.keys(RECURRING_SCHEDULES).length);
    for (const { stack, id, resource } of schedules) {
      const { GroupName, Target } = resource.Properties;
      const role = resourcesOf(stack, 'AWS::IAM::Role')[Target.RoleArn['Fn::GetAtt'][0]]!;
      expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Condition.StringEquals['aws:SourceArn'], id).toEqual(getAttArn(GroupName.Ref));
      expect(Target.DeadLetterConfig?.Arn, id).toEqual({ 'Fn::GetAtt': [expect.stringContaining('DeadLetterQueue'), 'Arn'] });
      expect(Target.RetryPolicy, id).toEqual({ MaximumRetryAttempts: expect.any(Number), MaximumEventAgeInSeconds: expect.any(Number) });
      const statements = role.Properties.Policies.flatMap((policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement);
      expect(statements, id).toContainEqual({ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: Target.DeadLetterConfig.Arn });
    }
  });

  it('alarms on target errors and lost invocations of every schedule group', () => {
    const groups = everywhere('AWS::Scheduler::ScheduleGroup');
    expect(groups.length).toBe(1 + Object.keys(RECURRING_SCHEDULES).length);
    const alarms = Object.values(resourcesOf(stacks.alarms, 'AWS::CloudWatch::Alarm'));
    const watching = (metricName: string) =>
      alarms.flatMap((alarm) =>
        (alarm.Properties.Metrics ?? []).flatMap((metric: { MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: Array<{ Name: string; Value: unknown }> } } }) =>
          metric.MetricStat?.Metric.Namespace === 'AWS/Scheduler' && metric.MetricStat.Metric.MetricName === metricName ? [JSON.stringify(metric.MetricStat.Metric.Dimensions)] : [],
        ),
      );
    for (const metricName of ['TargetErrorCount', 'TargetErrorThrottledCount', 'InvocationDroppedCount', 'InvocationsFailedToBeSentToDeadLetterCount']) {
      const dimensions = watching(metricName);
      expect(dimensions, metricName).toHaveLength(groups.length);
      for (const { id } of groups) expect(dimensions.some((watched) => watched.includes('ScheduleGroup') && watched.includes(id)), `${metricName} of ${id}`).toBe(true);
    }
  });
});

describe('dead-letter queues and npm run redrive', () => {
  const deadLetterQueues = () => app.node.findAll().filter((construct): construct is DeadLetterQueue => construct instanceof DeadLetterQueue);
  /** The declaration's queue in the synthesized app: its stack, and the construct DEAD_LETTER_QUEUES names. */
  const queueOf = (built: OddJobsStacks, source: DeadLetterSource) =>
    ({ Api: built.api, Auth: built.auth, Events: built.events })[source.stack].node.tryFindChild(source.constructId)?.node.tryFindChild('DeadLetterQueue') as DeadLetterQueue | undefined;

  it('knows every dead-letter queue of the app, by the name CloudFormation gives it, and its alarm names the command that clears it', () => {
    const declared = Object.entries(DEAD_LETTER_QUEUES);
    expect(deadLetterQueues().length).toBe(declared.length);
    const alarms = Object.values(resourcesOf(stacks.alarms, 'AWS::CloudWatch::Alarm'));
    for (const built of [stacks, variant()]) {
      for (const [name, source] of declared) {
        const queue = queueOf(built, source);
        expect(queue, name).toBeInstanceOf(DeadLetterQueue);
        const stack = Stack.of(queue!);
        // CloudFormation names a queue <stack>-<logical id>-<13 characters>, cut short beyond SQS's 80: the whole prefix must fit.
        const generatedPrefix = `${stack.stackName}-${cfnId(queue!)}`;
        expect(generatedPrefix.length + 14, generatedPrefix).toBeLessThanOrEqual(80);
        expect(generatedPrefix.startsWith(deadLetterQueuePrefix(stack.stackName, source.constructId)), `${name}: ${generatedPrefix}`).toBe(true);
      }
    }
    for (const [name, source] of declared) {
      const alarm = alarms.find((candidate) => candidate.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(candidate.Properties.Dimensions).includes(cfnId(queueOf(stacks, source)!)));
      expect(alarm?.Properties.AlarmDescription, name).toContain(source.kind === 'stream' ? 'docs/deploy.md' : `\`npm run redrive -- ${name}\``);
    }
  });

  it('reaches every one of them but the stream\'s with npm run redrive, in the stack and stage it is in', async () => {
    for (const [name, source] of Object.entries(DEAD_LETTER_QUEUES)) {
      const queue = queueOf(variant(), source)!;
      const prefixes: string[] = [];
      const actions: string[] = [];
      // An SQS client that has the one queue the prefix names, empty.
      const sqs = {
        send: async (command: { constructor: { name: string }; input: { QueueNamePrefix?: string } }) => {
          actions.push(command.constructor.name);
          if (command.input.QueueNamePrefix !== undefined) prefixes.push(command.input.QueueNamePrefix);
          const url = `https://sqs.us-east-1.amazonaws.com/123456789012/${Stack.of(queue).stackName}-${cfnId(queue)}-ABCDEFGHIJKLM`;
          if (command.constructor.name === 'ListQueuesCommand') return { QueueUrls: url.split('/').pop()!.startsWith(command.input.QueueNamePrefix!) ? [url] : [] };
          if (command.constructor.name === 'GetQueueAttributesCommand') return { Attributes: { QueueArn: 'arn:aws:sqs:us-east-1:123456789012:dlq' } };
          return {};
        },
      } as unknown as SQSClient;
      const redriving = redrive(name, { stage: VARIANT.stage, sqs, lambda: {} as LambdaClient });
      if (source.kind === 'stream') {
        await expect(redriving, name).rejects.toThrow(/stream records that expired/);
        continue;
      }
      expect(await redriving, name).toEqual({ redriven: 0, failed: 0, movedToSource: source.kind === 'queue' });
      expect(prefixes, name).toEqual([deadLetterQueuePrefix(Stack.of(queue).stackName, source.constructId)]);
      expect(actions, name).toContain(source.kind === 'queue' ? 'StartMessageMoveTaskCommand' : 'ReceiveMessageCommand');
    }
  });
});

describe('account deletion', () => {
  const statementsOf = (roleId: string) =>
    Object.values(resourcesOf(stacks.api, 'AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref(roleId)]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Effect: string }>);

  it('lets exactly the functions declaring userpool:delete-user check a password and delete a user, of the app\'s pool only', () => {
    const deleting = functions.filter((fn) => fn.declaration.capabilities.includes('userpool:delete-user'));
    expect(deleting.map((fn) => fn.declaration).sort(byEntry)).toEqual([HTTP_ROUTE_GROUPS.accountDeletion, RECURRING_SCHEDULES.deletionSweep].sort(byEntry));
    for (const fn of functions) {
      const touching = Object.values(resourcesOf(Stack.of(fn), 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref(cfnId(fn.role))]))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
        .filter((statement) => [statement.Action].flat().some((action) => /^cognito-idp:Admin(InitiateAuth|DeleteUser)$/.test(action)));
      if (!deleting.includes(fn)) {
        expect(touching, fn.declaration.entry).toEqual([]);
        continue;
      }
      expect(touching).toEqual([{ Action: ['cognito-idp:AdminDeleteUser', 'cognito-idp:AdminInitiateAuth'], Effect: 'Allow', Resource: { 'Fn::ImportValue': expect.any(String) } }]);
      expect(Object.keys(lambdaOf(fn).Properties.Environment.Variables)).toEqual(expect.arrayContaining([ENV.userPoolId, ENV.userPoolClientId]));
    }
  });

  it('allows the password check on the web client (server-side, with IAM) but not USER_PASSWORD_AUTH', () => {
    const client = Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPoolClient'))[0]!;
    expect(client.Properties.ExplicitAuthFlows).toContain('ALLOW_ADMIN_USER_PASSWORD_AUTH');
    expect(client.Properties.ExplicitAuthFlows).not.toContain('ALLOW_USER_PASSWORD_AUTH');
  });

  it('runs the deletion sweep daily through EventBridge Scheduler, as a role that may invoke the sweep alone, failures kept in a dead-letter queue', () => {
    const sweep = stacks.api.node.findAll().find((construct): construct is RecurringSchedule => construct instanceof RecurringSchedule && construct.target.declaration === RECURRING_SCHEDULES.deletionSweep)!;
    expect(sweep.target.declaration).toBe(RECURRING_SCHEDULES.deletionSweep);
    const schedule = resourcesOf(stacks.api, 'AWS::Scheduler::Schedule')[cfnId(sweep.schedule)]!;
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(24 hours)',
      GroupName: ref(cfnId(sweep.group)),
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: getAttArn(cfnId(sweep.target.function)),
        RoleArn: getAttArn(cfnId(sweep.schedulerRole)),
        DeadLetterConfig: { Arn: getAttArn(cfnId(sweep.deadLetterQueue)) },
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
      },
    });
    const schedulerRole = resourcesOf(stacks.api, 'AWS::IAM::Role')[cfnId(sweep.schedulerRole)]!;
    expect(statementsOf(cfnId(sweep.schedulerRole))).toEqual([]);
    expect(schedulerRole.Properties.Policies.flatMap((policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement)).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: getAttArn(cfnId(sweep.target.function)) },
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: getAttArn(cfnId(sweep.deadLetterQueue)) },
    ]);
    template(stacks.api).hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: ref(cfnId(sweep.target.function)),
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });
});

describe('site and web stacks', () => {
  it("serves the SPA from a private bucket through CloudFront, its routes as index.html, and the HTTP API on the same origin", () => {
    const [routeRequest, ...otherFunctions] = Object.entries(resourcesOf(stacks.site, 'AWS::CloudFront::Function'));
    expect(otherFunctions).toEqual([]);
    // The code the local stack's web servers run too (test/unit/site-request.test.ts).
    expect(routeRequest![1].Properties).toMatchObject({ FunctionCode: SITE_REQUEST_FUNCTION_CODE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' }, AutoPublish: true });
    const onViewerRequest = [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [routeRequest![0], 'FunctionARN'] } }];
    const [distribution] = Object.values(resourcesOf(stacks.site, 'AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    expect(config).toMatchObject({
      DefaultRootObject: 'index.html',
      DefaultCacheBehavior: { ViewerProtocolPolicy: 'redirect-to-https', ResponseHeadersPolicyId: expect.anything(), FunctionAssociations: onViewerRequest },
      Logging: { Bucket: expect.anything() },
    });
    // Error caching off for every code CloudFront lets one set, and no error page: a page would turn the API's own 403 and 404 into the site's.
    expect(config.CustomErrorResponses).toEqual(
      [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504].map((ErrorCode) => ({ ErrorCode, ErrorCachingMinTTL: 0 })),
    );
    const [siteFiles, api, ...otherOrigins] = config.Origins as Array<Record<string, unknown>>;
    expect(otherOrigins).toEqual([]);
    expect(siteFiles).toMatchObject({ OriginAccessControlId: expect.anything() });
    expect(JSON.stringify(api!.DomainName)).toMatch(new RegExp(`${cfnId(stacks.site.httpApi)}.*execute-api`));
    expect(api).toMatchObject({ CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] } });
    // CloudFront waits longer than every HTTP function and the HTTP API's own 30-second limit (so
    // the API's answer arrives, not CloudFront's timeout), within the 60 seconds it allows.
    const readTimeout = (api!.CustomOriginConfig as { OriginReadTimeout: number }).OriginReadTimeout;
    const slowestHttpFunction = Math.max(...routeGroups.map((group: FunctionDeclaration) => group.timeoutSeconds ?? 0));
    expect(readTimeout).toBeGreaterThan(Math.max(slowestHttpFunction, 30));
    expect(readTimeout).toBeLessThanOrEqual(60);
    expect(config.CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: `${API_PATH}/*`,
        TargetOriginId: api!.Id,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        // The managed CachingDisabled and AllViewerExceptHostHeader policies: nothing cached, every
        // header (the Authorization above all) and query string forwarded, but the Host.
        CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
        OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
        FunctionAssociations: onViewerRequest,
      }),
    ]);
    for (const bucket of Object.values(resourcesOf(stacks.site, 'AWS::S3::Bucket'))) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
  });

  it('sends one content security policy as header and in index.html, admitting Stripe.js, Cognito, the APIs and the images', () => {
    const [policy] = Object.values(resourcesOf(stacks.site, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const headers = policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers).toMatchObject({
      FrameOptions: { FrameOption: 'DENY' },
      ContentTypeOptions: { Override: true },
      StrictTransportSecurity: expect.objectContaining({ IncludeSubdomains: true }),
      ContentSecurityPolicy: { ContentSecurityPolicy: SITE_HEADER_CSP, Override: true },
    });
    const header = parsePolicy(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    // index.html: first in the head, with each deploy-time host shown as the value it stands for.
    const deployment = Object.values(resourcesOf(stacks.web, 'Custom::CDKBucketDeployment')).find((resource) => resource.Properties.DistributionPaths)!;
    const folder = stagedFolders(deployment).find((candidate) => existsSync(join(candidate, 'index.html')))!;
    const source = (deployment.Properties.SourceObjectKeys as unknown[]).findIndex((key) => JSON.stringify(key).includes(basename(folder).slice('asset.'.length)));
    const markers = deployment.Properties.SourceMarkers[source] as Record<string, unknown>;
    // An API's ApiEndpoint attribute is its URL, scheme included (https:// or wss://).
    const shown = (value: unknown) => {
      const name = JSON.stringify(value).replace(/[^\w:.]/g, '');
      return /ApiEndpoint/.test(name) ? `${/WebSocketApi/.test(name) ? 'wss' : 'https'}://${name}` : name;
    };
    const indexHtml = Object.entries(markers).reduce((html, [marker, value]) => html.replaceAll(marker, shown(value)), staged(deployment, 'index.html'));
    expect(indexHtml).toMatch(/^<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="[^"]+" \/><title>/);
    const page = parsePolicy(/content="([^"]+)"/.exec(indexHtml)![1]!);

    // They agree: the same directives (frame-ancestors only a header can carry), the same
    // sources, where the header names a later stack's host by its scheme only.
    expect(Object.keys(header).sort()).toEqual([...Object.keys(page), 'frame-ancestors'].sort());
    expect(header['frame-ancestors']).toEqual(["'none'"]);
    const admits = (headerSource: string, pageSource: string) => headerSource === pageSource || (/^[a-z]+:$/.test(headerSource) && pageSource.startsWith(`${headerSource}//`) && !pageSource.includes('stripe'));
    for (const [directive, sources] of Object.entries(page)) {
      for (const source of sources) expect(header[directive]!.some((headerSource) => admits(headerSource, source)), `${directive} ${source}`).toBe(true);
      for (const headerSource of header[directive]!) expect(sources.some((source) => admits(headerSource, source)), `${directive} ${headerSource}`).toBe(true);
    }

    // Stripe.js as Stripe documents it: its script and frames on js.stripe.com and its subdomains.
    for (const policyOf of [header, page]) {
      expect(policyOf['script-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com']));
      expect(policyOf['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']));
      expect(policyOf['connect-src']).toContain('https://api.stripe.com');
    }
    expect(STRIPE_JS_SOURCES.script).toContain('https://*.js.stripe.com');
    // This deployment's hosts: the HTTP and WebSocket APIs, Cognito, the images bucket and CDN.
    const named = (directive: string, pattern: RegExp) => expect(page[directive]!.some((source) => pattern.test(source)), `${directive} ${pattern}`).toBe(true);
    // The HTTP API is the page's own origin ('self'), not a host of its own.
    expect(page['connect-src']!.some((source) => /HttpApi/.test(source))).toBe(false);
    named('connect-src', /^wss:\/\/.*WebSocketApi.*ApiEndpoint/);
    named('connect-src', /^https:\/\/cognito-idp\./);
    named('connect-src', /^https:\/\/.*JobImages.*RegionalDomainName/);
    named('form-action', /^https:\/\/.*JobImages.*RegionalDomainName/);
    named('img-src', /^https:\/\/.*ImagesCdn.*DomainName/);
    // Amazon Location's maps (issue 46): the map's style, tiles and sprites.
    named('connect-src', /^https:\/\/maps\.geo\.Ref:AWS::Region\./);
    named('img-src', /^https:\/\/maps\.geo\.Ref:AWS::Region\./);
  });

  it("admits uploads from the site's origin only, and returns Stripe's onboarding there", () => {
    // The distribution's domain, as another stack reads it.
    const siteDomain = /SiteDistribution\w*DomainName/;
    const images = resourcesOf(stacks.data, 'AWS::S3::Bucket')[cfnId(stacks.data.imagesBucket)]!;
    const [uploadsFrom, ...others] = images.Properties.CorsConfiguration.CorsRules.flatMap((rule: { AllowedOrigins: unknown[] }) => rule.AllowedOrigins);
    expect(others).toEqual([]);
    // Through the SSM parameter the site stack keeps it in, read at each deploy of the data stack.
    const parameter = template(stacks.data).toJSON().Parameters[(uploadsFrom as { Ref: string }).Ref];
    expect(parameter.Type).toBe('AWS::SSM::Parameter::Value<String>');
    const [kept, ...moreKept] = Object.values(resourcesOf(stacks.site, 'AWS::SSM::Parameter'));
    expect(moreKept).toEqual([]);
    expect(kept!.Properties.Name).toBe(parameter.Default);
    expect(kept!.Properties.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [cfnId(stacks.site.distribution), 'DomainName'] }]] });
    for (const fn of functionsFor(HTTP_ROUTE_GROUPS.payments.entry)) {
      expect(JSON.stringify(lambdaOf(fn).Properties.Environment.Variables[ENV.siteOrigin])).toMatch(siteDomain);
    }
  });

  it('serves uploaded images from a CDN in front of the private bucket, with origin access control', () => {
    const distributions = Object.values(resourcesOf(stacks.data, 'AWS::CloudFront::Distribution'));
    expect(distributions).toHaveLength(1);
    const config = distributions[0]!.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.Origins[0].OriginAccessControlId).toBeDefined();
    expect(config.Logging).toBeDefined();
    // Whatever was uploaded is never sniffed, never rendered as a page, never runs script.
    const [policyId, policy] = Object.entries(resourcesOf(stacks.data, 'AWS::CloudFront::ResponseHeadersPolicy'))[0]!;
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(policy.Properties.ResponseHeadersPolicyConfig).toMatchObject({
      SecurityHeadersConfig: {
        ContentTypeOptions: { Override: true },
        ContentSecurityPolicy: { ContentSecurityPolicy: "default-src 'none'; sandbox", Override: true },
      },
      CustomHeadersConfig: { Items: [{ Header: 'Content-Disposition', Value: 'attachment', Override: true }] },
    });
  });

  it('deploys the build with a config.json for this deployment', () => {
    const deployment = Object.values(resourcesOf(stacks.web, 'Custom::CDKBucketDeployment')).find((resource) => resource.Properties.DistributionPaths)!;
    expect(deployment.Properties.DistributionPaths).toEqual(['/*']);
    const config = JSON.parse(staged(deployment, 'config.json')) as RuntimeConfig;
    expect(config).toMatchObject({ mode: 'aws', authFlowType: 'USER_SRP_AUTH', stripe: { publishableKey: expect.stringMatching(/^pk_/) } });
    expect(Object.keys(config).sort()).toEqual(['adminSeatByDeploy', 'apiUrl', 'authFlowType', 'map', 'mode', 'region', 'stripe', 'userPoolClientId', 'userPoolId', 'webSocketUrl']);
    // The stack checks the file against the shared schema at synth (the SPA trusts it): it passes.
    expect(runtimeConfigSchema.safeParse({ ...config, apiUrl: 'x', webSocketUrl: 'x', userPoolId: 'x', userPoolClientId: 'x' }).success).toBe(true);
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const source of ['SiteDistribution', 'WebSocketApi', 'UserPool', 'UserPoolWebClient']) expect(markers).toContain(source);
    // The HTTP API on the site's own origin.
    expect(config.apiUrl).toMatch(new RegExp(`^https://\\S+${API_PATH}$`));
  });

  it("gives the map of search results an Amazon Location map and a key that reads only it, from the site's pages only (issue 46)", () => {
    const web = template(stacks.web);
    web.resourceCountIs('AWS::Location::Map', 1);
    const [mapId] = Object.keys(resourcesOf(stacks.web, 'AWS::Location::Map'));
    const [key] = Object.values(resourcesOf(stacks.web, 'AWS::Location::APIKey'));
    expect(key!.Properties.Restrictions).toEqual({
      AllowActions: ['geo:GetMap*'],
      AllowResources: [{ 'Fn::GetAtt': [mapId, 'Arn'] }],
      AllowReferers: [{ 'Fn::Join': ['', ['https://', { 'Fn::ImportValue': expect.stringContaining('SiteDistribution') }, '/*']] }],
    });
    expect(key!.Properties.NoExpiry).toBe(true);
    // The key's value is read at deploy time (DescribeKey) into config.json's map style.
    const deployment = Object.values(resourcesOf(stacks.web, 'Custom::CDKBucketDeployment')).find((resource) => resource.Properties.DistributionPaths)!;
    expect(JSON.stringify(deployment.Properties.SourceMarkers)).toMatch(/SearchMapKeyValue\w*".*"Key"/);
    const [describeKey] = Object.values(resourcesOf(stacks.web, 'Custom::AWS'));
    expect(JSON.stringify(describeKey!.Properties.Update)).toContain('DescribeKey');
  });

  it('caches hashed assets for a year and revalidates the entry points, with no source map uploaded', () => {
    const deployments = Object.values(resourcesOf(stacks.web, 'Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((deployment) => deployment.Properties.DestinationBucketKeyPrefix === 'assets/')!;
    const site = deployments.find((deployment) => deployment !== assets)!;
    expect(assets.Properties.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(site.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });

    expect(stagedFiles(assets)).toEqual(['index-Bx7c9A1f.js']);
    expect(stagedFiles(site).sort()).toEqual(['config.json', 'favicon.svg', 'index.html']);
  });

  it('refuses to synthesize without a built web app', () => {
    const emptyDist = mkdtempSync(join(tempDir, 'empty-dist-'));
    const bare = new App({ context: CDK_CONTEXT, outdir: join(tempDir, 'bare.out') });
    expect(() => buildApp(bare, { webDistDir: emptyDist })).toThrow(/index\.html does not exist: run `npm run build`/);
    expect(bare.node.children).toEqual([]);
  });
});

describe('job feed fan-out', () => {
  it('feeds the shard consumer from a queue with a dead-letter queue, reporting failures message by message', () => {
    const api = template(stacks.api);
    const [consumer] = functionsFor(QUEUE_CONSUMERS.jobFeedShard.entry);
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(cfnId(consumer!.function)),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    api.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 3 },
      VisibilityTimeout: 6 * QUEUE_CONSUMERS.jobFeedShard.timeoutSeconds,
    });
    const [feed] = functionsFor(EVENT_RULES.jobFeed.entry);
    expect(Object.keys(lambdaOf(feed!).Properties.Environment.Variables)).toContain(ENV.jobFeedQueueUrl);
  });
});

describe('notification email', () => {
  const appFunctionsOf = (built: OddJobsStacks) =>
    [built.auth, built.api].flatMap((stack) => stack.node.findAll()).filter((construct): construct is AppFunction => construct instanceof AppFunction);
  const mailerOf = (built: OddJobsStacks) => appFunctionsOf(built).find((fn) => fn.declaration === QUEUE_CONSUMERS.mailer)!;
  const digestOf = (built: OddJobsStacks) => appFunctionsOf(built).find((fn) => fn.declaration === RECURRING_SCHEDULES.nearbyDigest)!;
  const variablesOf = (fn: AppFunction) =>
    (Template.fromStack(Stack.of(fn)).toJSON().Resources[cfnId(fn.function)] as Resource).Properties.Environment.Variables as Record<string, unknown>;
  /** Every statement of the policies on a function's role. */
  const statementsOf = (fn: AppFunction) =>
    Object.values(Template.fromStack(Stack.of(fn)).findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => (policy.Properties.Roles as unknown[]).some((role) => JSON.stringify(role) === JSON.stringify(ref(cfnId(fn.role)))))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown }>);
  const sesStatements = (fn: AppFunction) => statementsOf(fn).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')));

  it('queues every new notification for the mailer, which retries message by message into a dead-letter queue and may send to its own queue', () => {
    const queue = stacks.api.mailQueue;
    const api = template(stacks.api);
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: ref(cfnId(queue.consumer.function)),
      EventSourceArn: getAttArn(cfnId(queue.queue)),
      BatchSize: QUEUE_CONSUMERS.mailer.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resourcesOf(stacks.api, 'AWS::SQS::Queue')[cfnId(queue.queue)]!.Properties).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: getAttArn(cfnId(queue.deadLetterQueue)), maxReceiveCount: 3 },
      VisibilityTimeout: 6 * QUEUE_CONSUMERS.mailer.timeoutSeconds,
    });
    const [rule] = functionsFor(EVENT_RULES.notificationMail.entry);
    for (const sender of [rule!, queue.consumer]) {
      expect(lambdaOf(sender).Properties.Environment.Variables[ENV.mailQueueUrl], sender.declaration.entry).toEqual(referenceIn(sender, queue.queue.queueUrl));
      const sendingTo = statementsOf(sender).filter((statement) => [statement.Action].flat().includes('sqs:SendMessage')).map((statement) => JSON.stringify(statement.Resource));
      expect(sendingTo.join(), sender.declaration.entry).toContain(JSON.stringify(referenceIn(sender, queue.queue.queueArn)));
    }
  });

  it('lets only the mailer and the nearby digest send email, from the sesFromAddress identity only; without one they may send nothing', () => {
    const built = variant();
    const senders = [mailerOf(built), digestOf(built)];
    const byText = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();
    for (const sender of senders) {
      const [statement, ...others] = sesStatements(sender);
      expect(others).toEqual([]);
      expect(statement).toMatchObject({ Action: 'ses:SendEmail', Effect: 'Allow', Condition: { StringEquals: { 'ses:FromAddress': VARIANT.sesFromAddress } } });
      const configurationSet = Stack.of(sender).resolve(configurationSetArn(sender, built.auth.mailFeedback.configurationSet)) as unknown;
      expect(JSON.stringify(configurationSet)).toContain(':configuration-set/');
      expect(byText([statement!.Resource].flat())).toEqual(byText([...(Stack.of(sender).resolve(senderIdentityArns(sender, VARIANT.sesFromAddress)) as unknown[]), configurationSet]));
      expect(JSON.stringify(Stack.of(sender).resolve(senderIdentityArns(sender, VARIANT.sesFromAddress)))).toMatch(/identity\/no-reply@mail\.example\.com".*identity\/mail\.example\.com"/);
      expect(variablesOf(sender)[ENV.mailFromAddress]).toBe(VARIANT.sesFromAddress);
    }
    for (const fn of appFunctionsOf(built).filter((other) => !senders.includes(other))) expect(sesStatements(fn), fn.declaration.entry).toEqual([]);
    for (const fn of functions) expect(sesStatements(fn), fn.declaration.entry).toEqual([]);
    expect(variablesOf(mailerOf(stacks))[ENV.mailFromAddress]).toBe('');
    expect(variablesOf(digestOf(stacks))[ENV.mailFromAddress]).toBe('');
  });

  it("runs the nearby digest hourly through EventBridge Scheduler, with the mailer's links and unsubscribe key", () => {
    const schedule = stacks.api.node.findAll().find((construct): construct is RecurringSchedule => construct instanceof RecurringSchedule && construct.target.declaration === RECURRING_SCHEDULES.nearbyDigest)!;
    expect(resourcesOf(stacks.api, 'AWS::Scheduler::Schedule')[cfnId(schedule.schedule)]!.Properties).toMatchObject({ ScheduleExpression: 'rate(1 hour)' });
    const variables = variablesOf(digestOf(stacks));
    const mailer = variablesOf(mailerOf(stacks));
    for (const key of [ENV.mailLinkOrigin, ENV.apiUrl, ENV.unsubscribeSecretArn, ENV.mailConfigurationSet]) expect(variables[key], key).toEqual(mailer[key]);
  });

  it("sends with a configuration set whose bounces and complaints reach the feedback function through an encrypted SNS topic", () => {
    const feedback = stacks.auth.mailFeedback;
    const api = template(stacks.auth);
    const mailer = mailerOf(stacks);
    expect(variablesOf(mailer)[ENV.mailConfigurationSet]).toEqual(Stack.of(mailer).resolve(feedback.configurationSet.configurationSetName));
    expect(JSON.stringify(variablesOf(mailer)[ENV.mailConfigurationSet])).toContain('Fn::ImportValue');
    api.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: ref(cfnId(feedback.configurationSet)),
      EventDestination: { Enabled: true, MatchingEventTypes: Match.arrayEquals(['bounce', 'complaint']), SnsDestination: { TopicARN: ref(cfnId(feedback.topic)) } },
    });
    expect(resourcesOf(stacks.auth, 'AWS::SNS::Topic')[cfnId(feedback.topic)]!.Properties.KmsMasterKeyId).toBeDefined();
    api.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', TopicArn: ref(cfnId(feedback.topic)), Endpoint: getAttArn(cfnId(feedback.consumer.function)) });
    expect(feedback.consumer.declaration).toBe(TOPIC_CONSUMERS.sesFeedback);
    api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: ref(cfnId(feedback.consumer.function)),
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: getAttArn(cfnId(feedback.deadLetterQueue)) } },
    });
  });

  it("links emails to the site and their one-click unsubscribe to the HTTP API on the site's origin", () => {
    const built = variant();
    const variables = variablesOf(mailerOf(built));
    expect(variables[ENV.mailLinkOrigin]).toBe(`https://${VARIANT.domainName}`);
    // On the site's origin, as the web app calls it: the link outlives a replaced API.
    expect(variables[ENV.apiUrl]).toBe(`https://${VARIANT.domainName}${API_PATH}`);
  });

  it('signs unsubscribe links with a generated, kept secret that only the mailer, the nearby digest and the unsubscribe route read', () => {
    const secret = stacks.data.unsubscribeSecret;
    expect(resourcesOf(stacks.data, 'AWS::SecretsManager::Secret')[cfnId(secret)]).toMatchObject({
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } },
    });
    const readers = functions.filter((fn) => JSON.stringify(statementsOf(fn)).includes(cfnId(secret)));
    expect(readers.map((fn) => fn.declaration).sort(byEntry)).toEqual([HTTP_ROUTE_GROUPS.unsubscribe, QUEUE_CONSUMERS.mailer, RECURRING_SCHEDULES.nearbyDigest].sort(byEntry));
    for (const reader of readers) {
      expect(JSON.stringify(lambdaOf(reader).Properties.Environment.Variables[ENV.unsubscribeSecretArn])).toContain(cfnId(secret));
      expect(lambdaOf(reader).Properties.Environment.Variables[ENV.unsubscribeKey]).toBeUndefined();
    }
  });
});

describe('SNS topics', () => {
  /** Every topic of the app, with the one service that publishes to it. */
  const topicsAndPublishers = (): { topic: Topic; publisher: TopicPublisher }[] => {
    const alarms = app.node.findAll().find((construct): construct is OperationalAlarms => construct instanceof OperationalAlarms)!;
    const feedback = stacks.auth.mailFeedback;
    const scopeOf = (topic: Topic) => ({ partition: Stack.of(topic).partition, region: Stack.of(topic).region, account: Stack.of(topic).account });
    return [
      { topic: alarms.topic, publisher: TOPIC_PUBLISHERS.alarms(scopeOf(alarms.topic)) },
      { topic: feedback.topic, publisher: TOPIC_PUBLISHERS.sesFeedback(scopeOf(feedback.topic), feedback.configurationSet.configurationSetName) },
    ];
  };

  it("let their publisher publish (CloudWatch to the alarms' topic, SES to its feedback topic), scoped to this account and its source, and nothing without TLS", () => {
    const declared = topicsAndPublishers();
    expect(app.node.findAll().filter((construct) => construct instanceof Topic)).toHaveLength(declared.length);
    for (const { topic, publisher } of declared) {
      const stack = Stack.of(topic);
      const policies = Object.values(resourcesOf(stack, 'AWS::SNS::TopicPolicy')).filter((policy) => JSON.stringify(policy.Properties.Topics) === JSON.stringify([ref(cfnId(topic))]));
      const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]);
      const allow = stack.resolve(topicPublishStatement(topic.topicArn, stack.account, publisher)) as Record<string, unknown>;
      expect(statements, topic.node.path).toContainEqual(expect.objectContaining({ ...allow, Principal: { Service: publisher.service } }));
      expect(statements, topic.node.path).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Principal: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      // No other service and no account may publish.
      const allowed = statements.filter((statement) => statement.Effect === 'Allow').map((statement) => JSON.stringify(statement.Principal));
      expect(new Set(allowed), topic.node.path).toEqual(new Set([JSON.stringify({ Service: publisher.service })]));
    }
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(resourcesOf(stacks.alarms, 'AWS::CloudWatch::Alarm'));
  const watched = (alarm: Resource) => JSON.stringify(alarm.Properties.Dimensions ?? alarm.Properties.Metrics);
  const metricOf = (alarm: Resource) => ({
    name: alarm.Properties.MetricName ?? alarm.Properties.Metrics?.find((metric: { MetricStat?: unknown }) => metric.MetricStat)?.MetricStat.Metric.MetricName,
    dimensions: JSON.stringify(alarm.Properties.Dimensions ?? alarm.Properties.Metrics?.find((metric: { MetricStat?: unknown }) => metric.MetricStat)?.MetricStat.Metric.Dimensions),
    namespace: alarm.Properties.Namespace ?? alarm.Properties.Metrics?.find((metric: { MetricStat?: unknown }) => metric.MetricStat)?.MetricStat.Metric.Namespace,
  });

  /** The metrics an alarm sums (metric math: SUM of each metric's id); none for another alarm. */
  const summed = (alarm: Resource): Array<{ Namespace: string; MetricName: string; Dimensions: unknown }> => {
    const metrics = (alarm.Properties.Metrics ?? []) as Array<{ Id: string; Expression?: string; MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: unknown } } }>;
    const [expression, ...more] = metrics.filter((metric) => metric.Expression);
    if (!expression?.Expression!.startsWith('SUM(')) return [];
    expect(more).toEqual([]);
    const stats = metrics.filter((metric) => metric.MetricStat);
    expect(expression.Expression).toBe(`SUM([${stats.map((metric) => metric.Id).join(', ')}])`);
    return stats.map((metric) => metric.MetricStat!.Metric);
  };

  it('alarms on errors and throttles of every function, api and auth stacks alike, one alarm per concern and ten functions', () => {
    for (const fn of functions) {
      // Each function's name, through its stack's export.
      const name = cfnId(fn.function);
      for (const metric of ['Errors', 'Throttles']) {
        const matching = alarms().filter((alarm) => summed(alarm).some((watched) => watched.MetricName === metric && JSON.stringify(watched.Dimensions).includes(name)));
        expect(matching, `${metric} of ${fn.declaration.entry}`).toHaveLength(1);
        // It names the function it watches.
        expect(matching[0]!.Properties.AlarmDescription, fn.declaration.entry).toContain(fn.function.node.path.split('/').slice(1, -1).join('/'));
      }
    }
    // They grow with the concerns, not with each function: at most ten functions an alarm.
    const functionAlarms = alarms().filter((alarm) => summed(alarm).some((watched) => watched.MetricName === 'Errors' && watched.Namespace === 'AWS/Lambda'));
    expect(functionAlarms.length).toBeLessThanOrEqual(Math.ceil(functions.length / 10) + 6);
    for (const alarm of functionAlarms) expect(summed(alarm).length).toBeLessThanOrEqual(10);
  });

  it('alarms on any message in any dead-letter queue', () => {
    const deadLetterQueues = [stacks.api, stacks.events, stacks.auth].flatMap((stack) => Object.entries(resourcesOf(stack, 'AWS::SQS::Queue')).filter(([id]) => id.includes('DeadLetterQueue')));
    expect(deadLetterQueues.length).toBe(
      Object.keys(EVENT_RULES).length +
        Object.keys(QUEUE_CONSUMERS).length +
        Object.keys(STREAM_CONSUMERS).length +
        Object.keys(SCHEDULE_TARGETS).length +
        Object.keys(RECURRING_SCHEDULES).length +
        Object.keys(TOPIC_CONSUMERS).length,
    );
    for (const [id] of deadLetterQueues) {
      const alarm = alarms().find((candidate) => candidate.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && watched(candidate).includes(id));
      expect(alarm?.Properties, id).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('alarms on the HTTP 5xx rate, WebSocket errors and DynamoDB throttling, all through one topic', () => {
    const expressions = alarms().flatMap((alarm) => (alarm.Properties.Metrics ?? []).map((metric: { Expression?: string }) => metric.Expression ?? ''));
    expect(expressions).toContain('IF(requests > 0, 100 * serverErrors / requests, 0)');
    expect(expressions).toContain('integration + execution');
    const metricNames = alarms().flatMap((alarm) => (alarm.Properties.Metrics ?? []).map((metric: { MetricStat?: { Metric: { MetricName: string } } }) => metric.MetricStat?.Metric.MetricName));
    expect(metricNames).toEqual(expect.arrayContaining(['5xx', 'Count', 'IntegrationError', 'ExecutionError', 'ThrottledRequests']));
    const [topicId] = Object.keys(resourcesOf(stacks.alarms, 'AWS::SNS::Topic'));
    for (const alarm of alarms()) {
      expect(alarm.Properties.AlarmActions).toEqual([ref(topicId!)]);
      expect(alarm.Properties.OKActions).toEqual([ref(topicId!)]);
    }
    template(stacks.alarms).resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('counts 5xx by route and 429s from the access log, and alarms on a 5xx of every declared route', () => {
    const filters = Object.values(resourcesOf(stacks.alarms, 'AWS::Logs::MetricFilter'));
    const accessLogs = cfnId(stacks.api.httpApi.accessLogs);
    for (const filter of filters) expect(JSON.stringify(filter.Properties.LogGroupName)).toContain(accessLogs);
    const serverErrors = filters.find((filter) => filter.Properties.FilterPattern === '{ $.status >= 500 }')!;
    expect(serverErrors.Properties.MetricTransformations).toEqual([
      expect.objectContaining({ MetricName: 'Http5xx', MetricValue: '1', Dimensions: [{ Key: 'RouteKey', Value: '$.routeKey' }] }),
    ]);
    expect(filters.find((filter) => filter.Properties.FilterPattern === '{ $.status = 429 }')?.Properties.MetricTransformations).toEqual([
      expect.objectContaining({ MetricName: 'Http429', MetricValue: '1' }),
    ]);
    const namespace = serverErrors.Properties.MetricTransformations[0].MetricNamespace;
    for (const { routeKey } of declaredRoutes) {
      const matching = alarms().filter((alarm) =>
        summed(alarm).some((metric) => metric.MetricName === 'Http5xx' && metric.Namespace === namespace && JSON.stringify(metric.Dimensions) === JSON.stringify([{ Name: 'RouteKey', Value: routeKey }])),
      );
      expect(matching, routeKey).toHaveLength(1);
      expect(matching[0]!.Properties.Threshold).toBe(1);
      expect(matching[0]!.Properties.AlarmDescription).toContain(routeKey);
    }
    // One alarm per route group and ten routes, not one per route.
    const routeAlarms = alarms().filter((alarm) => summed(alarm).some((metric) => metric.MetricName === 'Http5xx'));
    expect(routeAlarms.length).toBe(Object.values(HTTP_ROUTE_GROUPS).reduce((sum, group) => sum + Math.ceil(Object.keys(group.routes).length / 10), 0));
    expect(alarms().filter((alarm) => metricOf(alarm).name === 'Http429' && metricOf(alarm).namespace === namespace)).toHaveLength(1);
    // The access log's status is a number, so the filters' comparisons match it.
    const [stage] = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage')).filter((candidate) => candidate.Properties.StageName === '$default');
    expect(stage!.Properties.AccessLogSettings.Format).toContain('"status":$context.status,');
    // Each namespace is the stage's own, so two stages in one account do not count together.
    expect(namespace).toContain(stacks.alarms.stackName);
  });

  it("alarms on a late outbox relay, a late job feed and the account's Lambda concurrency near its quota", () => {
    const relay = cfnId(functionsFor(STREAM_CONSUMERS.outboxRelay.entry)[0]!.function);
    const iteratorAge = alarms().filter((alarm) => metricOf(alarm).name === 'IteratorAge');
    expect(iteratorAge).toHaveLength(1);
    expect(metricOf(iteratorAge[0]!).dimensions).toContain(relay);
    expect(iteratorAge[0]!.Properties).toMatchObject({ Statistic: 'Maximum', Threshold: 5 * 60 * 1000 });

    const queueAge = alarms().filter((alarm) => metricOf(alarm).name === 'ApproximateAgeOfOldestMessage');
    expect(queueAge).toHaveLength(1);
    expect(metricOf(queueAge[0]!).dimensions).toContain(cfnId(stacks.api.jobFeedQueue.queue));
    expect(queueAge[0]!.Properties).toMatchObject({ Statistic: 'Maximum', Threshold: 60 });

    const concurrency = alarms().filter((alarm) => metricOf(alarm).name === 'ConcurrentExecutions');
    expect(concurrency).toHaveLength(1);
    // Account-wide (no function), at 80% of Lambda's default quota, or of the one given.
    expect(metricOf(concurrency[0]!)).toMatchObject({ namespace: 'AWS/Lambda', dimensions: undefined });
    expect(concurrency[0]!.Properties.Threshold).toBe(800);
    expect(JSON.stringify(concurrency[0]!.Properties.Metrics)).toContain('"Stat":"Maximum"');
    const [variantConcurrency] = Object.values(resourcesOf(variant().alarms, 'AWS::CloudWatch::Alarm')).filter((alarm) => metricOf(alarm).name === 'ConcurrentExecutions');
    expect(variantConcurrency!.Properties.Threshold).toBe(0.8 * VARIANT.lambdaConcurrencyQuota);
  });

  it('reconciles the ledger with Stripe daily through EventBridge Scheduler, and alarms on any difference its function publishes', () => {
    const schedule = stacks.api.node.findAll().find((construct): construct is RecurringSchedule => construct instanceof RecurringSchedule && construct.target.declaration === RECURRING_SCHEDULES.reconciliation)!;
    const fnId = cfnId(schedule.target.function);
    expect(resourcesOf(stacks.api, 'AWS::Scheduler::Schedule')[cfnId(schedule.schedule)]!.Properties).toMatchObject({ ScheduleExpression: 'rate(24 hours)', Target: { Arn: getAttArn(fnId) } });
    // It is told where the table and the Stripe keys' secret are, and how long to keep the keys, and nothing else (its grants are checked with every function's above).
    const variables = lambdaOf(schedule.target).Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables).filter((name) => name !== 'NODE_OPTIONS').sort()).toEqual([ENV.stripeSecretArn, ENV.secretMaxAgeSeconds, ENV.tableName].sort());
    expect(variables[ENV.secretMaxAgeSeconds]).toBe(String(DEFAULT_SECRET_MAX_AGE_SECONDS));

    const differences = alarms().filter((alarm) => metricOf(alarm).name === RECONCILIATION_METRIC.name);
    expect(differences).toHaveLength(1);
    expect(differences[0]!.Properties).toMatchObject({
      Namespace: RECONCILIATION_METRIC.namespace,
      Statistic: 'Maximum',
      Period: 86_400,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    // Powertools' dimensions: the service, and this stage's function (through the api stack's export).
    const dimensions = differences[0]!.Properties.Dimensions as Array<{ Name: string; Value: unknown }>;
    expect(dimensions.map(({ Name }) => Name).sort()).toEqual([RECONCILIATION_METRIC.dimension, 'service'].sort());
    expect(dimensions.find(({ Name }) => Name === 'service')?.Value).toBe(RECONCILIATION_METRIC.service);
    expect(JSON.stringify(dimensions.find(({ Name }) => Name === RECONCILIATION_METRIC.dimension)?.Value)).toContain(fnId);
  });

  it('retries pending money decisions every 5 minutes through EventBridge Scheduler, and alarms on any its function counts overdue', () => {
    const schedule = stacks.api.node.findAll().find((construct): construct is RecurringSchedule => construct instanceof RecurringSchedule && construct.target.declaration === RECURRING_SCHEDULES.moneyDecisions)!;
    const fnId = cfnId(schedule.target.function);
    expect(resourcesOf(stacks.api, 'AWS::Scheduler::Schedule')[cfnId(schedule.schedule)]!.Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      Target: { Arn: getAttArn(fnId), RetryPolicy: { MaximumEventAgeInSeconds: 300 } },
    });
    const overdue = alarms().filter((alarm) => metricOf(alarm).name === OVERDUE_DECISIONS_METRIC.name);
    expect(overdue).toHaveLength(1);
    expect(overdue[0]!.Properties).toMatchObject({ Namespace: OVERDUE_DECISIONS_METRIC.namespace, Statistic: 'Maximum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    const dimensions = overdue[0]!.Properties.Dimensions as Array<{ Name: string; Value: unknown }>;
    expect(JSON.stringify(dimensions.find(({ Name }) => Name === OVERDUE_DECISIONS_METRIC.dimension)?.Value)).toContain(fnId);
  });

  it('mails the alarms only to an alarmEmail given', () => {
    template(stacks.alarms).resourceCountIs('AWS::SNS::Subscription', 0);
    Template.fromStack(variant().alarms).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: VARIANT.alarmEmail });
  });
});

describe('stacks', () => {
  it('keep what they keep except from a failed create, so the retry of a failed first deploy finds nothing of its own in the way', () => {
    for (const stack of Object.values(stacks)) {
      const kept = Object.entries(template(stack).toJSON().Resources as Record<string, Resource>).filter(([, resource]) => resource.DeletionPolicy);
      for (const [id, resource] of kept) expect(resource.DeletionPolicy, `${stack.stackName} ${id}`).not.toBe('Retain');
    }
    // Deletion protection stays on the table and the pool, on purpose (docs/deploy.md says how a failed first create clears it).
    expect(Object.values(resourcesOf(stacks.data, 'AWS::DynamoDB::GlobalTable'))[0]!.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
    expect(Object.values(resourcesOf(stacks.auth, 'AWS::Cognito::UserPool'))[0]!.Properties.DeletionProtection).toBe('ACTIVE');
  });

  it('let the site stack be replaced: the data stack, kept across releases, imports nothing of it', () => {
    const imports = JSON.stringify(template(stacks.data).toJSON()).match(/"Fn::ImportValue":"[^"]*"/g) ?? [];
    expect(imports.filter((name) => name.includes(stacks.site.stackName))).toEqual([]);
    expect(stacks.data.dependencies).toContain(stacks.site);
  });

  it('refer to each other only through the exports CDK generates for strong references', () => {
    const exported = new Set(
      Object.values(stacks).flatMap((stack) => Object.values(template(stack).toJSON().Outputs ?? {}).flatMap((output) => (output as { Export?: { Name: string } }).Export?.Name ?? [])),
    );
    let referencesSeen = 0;
    for (const stack of Object.values(stacks)) {
      const json = JSON.stringify(template(stack).toJSON());
      // No weak reference (Fn::GetStackOutput): a producer stack cannot go while a consumer uses it.
      expect(json, stack.stackName).not.toContain('Fn::GetStackOutput');
      const imports = [...json.matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((match) => match[1]!);
      referencesSeen += imports.length;
      for (const name of imports) {
        expect(name, `${stack.stackName} imports ${name}`).toMatch(/:ExportsOutput/);
        expect(exported.has(name), `${stack.stackName} imports ${name}`).toBe(true);
      }
    }
    expect(referencesSeen).toBeGreaterThan(0);
  });

  it('protects the stateful stacks from deletion and keeps the replaceable ones unprotected', () => {
    expect(stacks.data.terminationProtection).toBe(true);
    expect(stacks.auth.terminationProtection).toBe(true);
    expect(stacks.api.terminationProtection).toBe(false);
    expect(stacks.httpRoutes.terminationProtection).toBe(false);
    expect(stacks.alarms.terminationProtection).toBe(false);
    expect(stacks.web.terminationProtection).toBe(false);
    expect(stacks.site.terminationProtection).toBe(false);
  });
});

describe('event outbox', () => {
  it('streams the table\'s new images to the outbox relay, filtered to outbox inserts, retried in order with a dead-letter queue', () => {
    const [table] = Object.values(resourcesOf(stacks.data, 'AWS::DynamoDB::GlobalTable'));
    expect(table!.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const mappings = Object.values(resourcesOf(stacks.api, 'AWS::Lambda::EventSourceMapping')).filter((mapping) =>
      JSON.stringify(mapping.Properties.EventSourceArn).includes('StreamArn'),
    );
    expect(mappings).toHaveLength(Object.keys(STREAM_CONSUMERS).length);
    const relayId = cfnId(functionsFor(STREAM_CONSUMERS.outboxRelay.entry)[0]!.function);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionName: ref(relayId),
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: -1,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(STREAM_CONSUMERS.outboxRelay.filter) }] },
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    expect(JSON.stringify(mappings[0]!.Properties.EventSourceArn)).toContain('StreamArn');
  });

  it('lets only the outbox relay put events on the bus: every other function writes events to the table', () => {
    const putters = functions.filter((fn) =>
      Object.values(resourcesOf(Stack.of(fn), 'AWS::IAM::Policy')).some(
        (policy) => JSON.stringify(policy.Properties.PolicyDocument).includes('events:PutEvents') && JSON.stringify(policy.Properties.Roles).includes(cfnId(fn.role)),
      ),
    );
    expect(putters.map((fn) => fn.declaration.entry)).toEqual([STREAM_CONSUMERS.outboxRelay.entry]);
  });
});

describe('first deploy', () => {
  const webDist = () => join(tempDir, 'web-dist');
  const synthWithout = (setting: keyof typeof REQUIRED_SETTINGS, value?: string) => () => {
    const bare = new App({ context: CDK_CONTEXT, outdir: mkdtempSync(join(tempDir, 'settings-')) });
    buildApp(bare, { webDistDir: webDist(), ...REQUIRED_SETTINGS, [setting]: value });
  };

  it('refuses to synthesize without a Stripe publishable key or an admin email', () => {
    expect(synthWithout('stripePublishableKey')).toThrow(/stripePublishableKey is missing: deploy with -c stripePublishableKey=pk_/);
    expect(synthWithout('stripePublishableKey', 'pk_test_unset ')).toThrow(/stripePublishableKey is not valid/);
    expect(synthWithout('adminEmail')).toThrow(/adminEmail is missing: deploy with -c adminEmail=/);
    expect(synthWithout('adminEmail', 'not-an-email')).toThrow(/adminEmail is not valid/);
  });

  it('creates the admin itself: a custom resource invites adminEmail, and public sign-up is refused the admin role', () => {
    const seats = Object.values(resourcesOf(stacks.auth, 'Custom::AdminSeat'));
    expect(seats).toHaveLength(1);
    expect(seats[0]!.Properties).toMatchObject({ AdminEmail: REQUIRED_SETTINGS.adminEmail });
    const [seatFunction] = functionsFor(DEPLOY_FUNCTIONS.adminSeat.entry);
    const policies = Object.values(resourcesOf(stacks.auth, 'AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes(cfnId(seatFunction!.role)),
    );
    expect(JSON.stringify(policies)).toContain('cognito-idp:AdminCreateUser');
    const [preSignUp] = functionsFor(COGNITO_TRIGGERS.preSignUp.entry);
    expect(lambdaOf(preSignUp!).Properties.Environment.Variables[ENV.adminSeatByDeploy]).toBe('true');
  });

  it('lets image readers list the images bucket, so a missing upload is a 404 and not a 403', () => {
    const policies = Object.values(resourcesOf(stacks.data, 'AWS::IAM::ManagedPolicy'));
    const imagesRead = policies.find((policy) => policy.Properties.Description.startsWith('Reads job images'))!;
    expect(imagesRead.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Action: 's3:ListBucket', Resource: getAttArn(cfnId(stacks.data.imagesBucket)) }),
    );
  });

  it('gives every function that calls Stripe the time of two Stripe requests at their worst', () => {
    const worstRequestSeconds = ((STRIPE_CLIENT_LIMITS.maxNetworkRetries + 1) * STRIPE_CLIENT_LIMITS.timeoutMs) / 1000 + 1;
    const callers = functions.filter((fn) => fn.declaration.capabilities.includes('stripe'));
    expect(callers.length).toBeGreaterThan(0);
    for (const fn of callers) expect(lambdaOf(fn).Properties.Timeout, fn.declaration.entry).toBeGreaterThanOrEqual(2 * worstRequestSeconds);
  });
});

describe('web push', () => {
  it('keeps the VAPID keys in a secret of the data stack, kept when the stack goes (subscriptions were made with its public key)', () => {
    const secrets = Object.entries(resourcesOf(stacks.data, 'AWS::SecretsManager::Secret')).filter(([, secret]) => String(secret.Properties.Description).includes('VAPID'));
    expect(secrets.map(([id]) => id)).toEqual([cfnId(stacks.data.vapidSecret)]);
    expect(secrets[0]![1]).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate' });
  });

  it('lets exactly the functions declaring push:vapid read that secret, and tells them where it is', () => {
    const secretId = cfnId(stacks.data.vapidSecret);
    const readers = functions.filter((fn) => fn.declaration.capabilities.includes('push:vapid'));
    // The mailer pushes what quiet hours held back.
    expect(readers.map((fn) => fn.declaration.entry).sort()).toEqual([EVENT_RULES.notificationWebPush.entry, HTTP_ROUTE_GROUPS.pushSubscriptions.entry, QUEUE_CONSUMERS.mailer.entry].sort());
    for (const fn of functions) {
      const roleId = cfnId(fn.role);
      const statements = Object.values(resourcesOf(Stack.of(fn), 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
      const onSecret = statements.filter((statement) => JSON.stringify(statement.Resource).includes(secretId));
      const variable = lambdaOf(fn).Properties.Environment?.Variables?.[ENV.vapidSecretArn];
      if (readers.includes(fn)) {
        expect(onSecret.flatMap((statement) => [statement.Action].flat()).sort(), fn.declaration.entry).toEqual([...CAPABILITY_GRANTS['push:vapid'].actions].sort());
        expect(JSON.stringify(variable), fn.declaration.entry).toContain(secretId);
      } else {
        expect(onSecret, fn.declaration.entry).toEqual([]);
        expect(variable, fn.declaration.entry).toBeUndefined();
      }
    }
  });

  it('admits the service worker from the site itself only', () => {
    expect(parsePolicy(SITE_HEADER_CSP)['worker-src']).toEqual(["'self'"]);
  });
});

describe('deployment limits and a second deployment', () => {
  /**
   * CloudFormation's limit is 500 resources a stack; each stays near 60% of it, room to grow. The
   * Api stack reached 300 with the nearby digest's schedule (9 resources, 308 in all) and 317 with
   * the reconciliation's: moving the recurring schedules to a stack of their own is the next step
   * before it grows further.
   */
  const RESOURCES_PER_STACK = 250;

  it(`keeps every stack at or under ${RESOURCES_PER_STACK} resources`, () => {
    expect(Object.keys(stacks).length).toBeGreaterThanOrEqual(7);
    for (const stack of Object.values(stacks)) {
      const count = Object.keys(template(stack).toJSON().Resources).length;
      expect(count, stack.stackName).toBeLessThanOrEqual(RESOURCES_PER_STACK);
    }
  });

  /** Where a resource's name is, for the types whose names are unique in an account, or in a region of it. */
  const UNIQUE_NAMES: Record<string, { path: string[]; scope: 'account' | 'region' }> = {
    'AWS::S3::Bucket': { path: ['BucketName'], scope: 'account' },
    'AWS::CloudFront::ResponseHeadersPolicy': { path: ['ResponseHeadersPolicyConfig', 'Name'], scope: 'account' },
    'AWS::CloudFront::OriginAccessControl': { path: ['OriginAccessControlConfig', 'Name'], scope: 'account' },
    'AWS::CloudWatch::Dashboard': { path: ['DashboardName'], scope: 'account' },
    'AWS::IAM::Role': { path: ['RoleName'], scope: 'account' },
    'AWS::IAM::ManagedPolicy': { path: ['ManagedPolicyName'], scope: 'account' },
    'AWS::Location::PlaceIndex': { path: ['IndexName'], scope: 'region' },
    'AWS::Logs::LogGroup': { path: ['LogGroupName'], scope: 'region' },
    'AWS::Lambda::Function': { path: ['FunctionName'], scope: 'region' },
    'AWS::SQS::Queue': { path: ['QueueName'], scope: 'region' },
    'AWS::SNS::Topic': { path: ['TopicName'], scope: 'region' },
    'AWS::Events::EventBus': { path: ['Name'], scope: 'region' },
    'AWS::SecretsManager::Secret': { path: ['Name'], scope: 'region' },
    'AWS::DynamoDB::GlobalTable': { path: ['TableName'], scope: 'region' },
    'AWS::CloudWatch::Alarm': { path: ['AlarmName'], scope: 'region' },
    'AWS::Cognito::UserPoolDomain': { path: ['Domain'], scope: 'region' },
  };

  /**
   * The names a deployment's templates give resources of those types, as deployed to the
   * account and region, prefixed by what they must be unique in. A name left to CloudFormation
   * (none given) or made of another resource's reference is unique as that resource is.
   */
  const fixedNames = (stack: Stack, region: string) => {
    const pseudo: Record<string, string> = { 'AWS::AccountId': '123456789012', 'AWS::Region': region, 'AWS::StackName': stack.stackName, 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com' };
    const resolve = (value: unknown): string | undefined => {
      if (typeof value === 'string') return value;
      const node = value as Record<string, unknown> | undefined;
      if (typeof node?.Ref === 'string') return pseudo[node.Ref];
      if (Array.isArray(node?.['Fn::Join'])) {
        const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
        const resolved = parts.map(resolve);
        return resolved.every((part) => part !== undefined) ? resolved.join(separator) : undefined;
      }
      return undefined;
    };
    return Object.values(template(stack).toJSON().Resources as Record<string, Resource>).flatMap((resource) => {
      const unique = UNIQUE_NAMES[resource.Type];
      if (!unique) return [];
      const name = resolve(unique.path.reduce((node: Record<string, unknown> | undefined, key) => node?.[key] as Record<string, unknown> | undefined, resource.Properties));
      return name === undefined ? [] : [`${unique.scope === 'region' ? `${region} ` : ''}${resource.Type} ${name}`];
    });
  };

  it('lets another stage, or the same stage in another region, deploy beside the first: no fixed name is the same', () => {
    const deployments = {
      'prod in us-east-1': Object.values(stacks).flatMap((stack) => fixedNames(stack, 'us-east-1')),
      'staging in us-east-1': Object.values(variant()).flatMap((stack) => fixedNames(stack, 'us-east-1')),
      'prod in eu-west-1': Object.values(stacks).flatMap((stack) => fixedNames(stack, 'eu-west-1')),
    };
    // The names that must be unique are there to be compared: the site bucket, CloudFront's policies, the dashboard.
    expect(deployments['prod in us-east-1']).toEqual(
      expect.arrayContaining([
        'AWS::S3::Bucket oddjobs-site-123456789012-us-east-1',
        'us-east-1 AWS::Location::PlaceIndex OddJobsApi-places',
        expect.stringMatching(/^AWS::CloudFront::ResponseHeadersPolicy /),
        expect.stringMatching(/^AWS::CloudFront::OriginAccessControl /),
        expect.stringMatching(/^AWS::CloudWatch::Dashboard /),
      ]),
    );
    expect(deployments['staging in us-east-1']).toContain('AWS::S3::Bucket oddjobs-staging-site-123456789012-us-east-1');
    const entries = Object.entries(deployments);
    for (const [first, names] of entries) {
      expect(new Set(names).size, `${first} names something twice`).toBe(names.length);
      for (const [second, others] of entries.filter(([other]) => other !== first)) {
        expect(names.filter((name) => others.includes(name)), `${first} and ${second}`).toEqual([]);
      }
    }
    // Stack names: the default stage keeps the names of the releases before stages.
    expect(Object.values(stacks).map((stack) => stack.stackName)).toContain('OddJobsData');
    expect(Object.values(variant()).map((stack) => stack.stackName)).toEqual(expect.arrayContaining(['OddJobs-staging-Data', 'OddJobs-staging-Api']));
    // API Gateway's account-level logging role is the account's, set once (docs/deploy.md), in no stage's stack.
    for (const stack of [...Object.values(stacks), ...Object.values(variant())]) {
      expect(resourcesOf(stack, 'AWS::ApiGateway::Account'), stack.stackName).toEqual({});
    }
    expect(CDK_CONTEXT['@aws-cdk/aws-apigateway:disableCloudWatchRole']).toBe(true);
  });

  it('refuses a stage name that cannot build the account-wide names, and a domain without its certificate', () => {
    const synthWith = (options: Partial<OddJobsAppOptions>) => () =>
      buildApp(new App({ context: CDK_CONTEXT, outdir: mkdtempSync(join(tempDir, 'settings-')) }), { webDistDir: join(tempDir, 'web-dist'), ...REQUIRED_SETTINGS, ...options });
    expect(synthWith({ stage: 'Staging_1' })).toThrow(/stage is not valid/);
    expect(synthWith({ domainName: VARIANT.domainName })).toThrow(/domainName and certificateArn go together/);
    expect(synthWith({ domainName: VARIANT.domainName, certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x' })).toThrow(/certificateArn is not valid/);
  });

  it("serves the site from the operator's domain with its certificate and TLS 1.2, when given; CloudFront's own otherwise", () => {
    const configOf = (stack: Stack) => Object.values(resourcesOf(stack, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    expect(configOf(stacks.site).Aliases).toBeUndefined();
    expect(configOf(stacks.site).ViewerCertificate).toBeUndefined();
    const withDomain = configOf(variant().site);
    expect(withDomain.Aliases).toEqual([VARIANT.domainName]);
    expect(withDomain.ViewerCertificate).toEqual({ AcmCertificateArn: VARIANT.certificateArn, SslSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021' });
    // The uploads' CORS, Stripe's return URL, the API's URL and the SiteUrl output follow the domain.
    const images = resourcesOf(variant().data, 'AWS::S3::Bucket')[cfnId(variant().data.imagesBucket)]!;
    expect(images.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual([`https://${VARIANT.domainName}`]);
    expect(template(variant().web).toJSON().Outputs.ApiUrl.Value).toBe(`https://${VARIANT.domainName}${API_PATH}`);
    expect(template(variant().web).toJSON().Outputs.SiteUrl.Value).toBe(`https://${VARIANT.domainName}`);
    expect(JSON.stringify(template(stacks.web).toJSON().Outputs.SiteUrl.Value)).toMatch(/SiteDistribution\w*DomainName/);
  });

  it("sends the user pool's mail through SES from sesFromAddress, when given; with Cognito's sender otherwise", () => {
    const poolOf = (stack: Stack) => Object.values(resourcesOf(stack, 'AWS::Cognito::UserPool'))[0]!.Properties;
    expect(poolOf(stacks.auth).EmailConfiguration).toBeUndefined();
    const withSes = poolOf(variant().auth).EmailConfiguration;
    expect(withSes).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: `OddJobs <${VARIANT.sesFromAddress}>` });
    expect(JSON.stringify(withSes.SourceArn)).toContain(':identity/mail.example.com');
  });
});

describe('the admin seat', () => {
  it('is taken once the admin group exists and Cognito may run the pre-sign-up trigger that AdminCreateUser runs', () => {
    const [seat] = Object.values(resourcesOf(stacks.auth, 'Custom::AdminSeat'));
    const [groupId] = Object.entries(resourcesOf(stacks.auth, 'AWS::Cognito::UserPoolGroup')).find(([, group]) => group.Properties.GroupName === ADMIN_GROUP)!;
    const preSignUpArn = getAttArn(cfnId(functionsFor(COGNITO_TRIGGERS.preSignUp.entry)[0]!.function));
    const permissions = Object.entries(resourcesOf(stacks.auth, 'AWS::Lambda::Permission')).filter(
      ([, permission]) => JSON.stringify(permission.Properties.FunctionName) === JSON.stringify(preSignUpArn) && permission.Properties.Principal === 'cognito-idp.amazonaws.com',
    );
    expect(permissions).toHaveLength(1);
    expect(seat!.DependsOn).toEqual(expect.arrayContaining([groupId, permissions[0]![0]]));
  });

  it('mails the invitation again only when resendAdminInvitation is given a new value', () => {
    const [seat] = Object.values(resourcesOf(stacks.auth, 'Custom::AdminSeat'));
    expect(seat!.Properties).not.toHaveProperty('ResendInvitation');
    const [again] = Object.values(resourcesOf(variant().auth, 'Custom::AdminSeat'));
    expect(again!.Properties).toMatchObject({ ResendInvitation: VARIANT.resendAdminInvitation });
    const [seatFunction] = functionsFor(DEPLOY_FUNCTIONS.adminSeat.entry);
    const policies = Object.values(resourcesOf(stacks.auth, 'AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.Roles).includes(cfnId(seatFunction!.role)));
    expect(JSON.stringify(policies)).toContain('cognito-idp:AdminGetUser');
  });
});

describe("docs/deploy.md's commands", () => {
  /** The context values a deploy may pass (build-app.ts's settings, and alarmEmail). */
  const SETTINGS = ['stripePublishableKey', 'adminEmail', 'alarmEmail', 'siteOrigin', 'stage', 'domainName', 'certificateArn', 'sesFromAddress', 'resendAdminInvitation', 'lambdaConcurrencyQuota', 'autoReleaseHours'];

  it('gives every cdk command that synthesizes the app the context values synth requires, and names only settings and stacks the app has', () => {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8').replace(/\\\n\s*/g, ' ');
    const commands = docs
      .split('\n')
      .map((line) => line.replace(/\s#.*$/, '').trim())
      .filter((line) => /^npx cdk (deploy|destroy|diff|synth)\b/.test(line));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const stackNames = Object.values(stacks).map((stack) => stack.stackName);
    for (const command of commands) {
      const settings = [...command.matchAll(/-c (\w+)=/g)].map(([, name]) => name!);
      // Synth throws without these two (build-app.ts), and every cdk command synthesizes the app.
      expect(settings, command).toEqual(expect.arrayContaining(['stripePublishableKey', 'adminEmail']));
      for (const setting of settings) expect(SETTINGS, command).toContain(setting);
      if (settings.includes('stage')) continue;
      for (const named of command.split(/\s+/).filter((word) => /^OddJobs/.test(word))) expect(stackNames, command).toContain(named);
    }
  });

  it("names the log groups CloudFormation gives the HTTP API's access log and every function, in the Logs Insights recipe", () => {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
    const recipe = /<!-- logs-insights-recipe[^>]*-->\s*```text\n([\s\S]+?)```/.exec(docs)![1]!;
    const [accessLogQuery, functionQuery] = recipe.split(/^# 2\./m);
    const patternsIn = (query: string) => [...query.split('\n')[0]!.matchAll(/([\w/*-]*OddJobs[\w*-]+)/g)].map(([, pattern]) => new RegExp(`^${pattern!.replace(/\*/g, '.*')}$`));
    // A log group without a name of its own is named <stack>-<logical id>-<suffix> by CloudFormation.
    const generatedName = (group: IConstruct) => {
      const resource = template(Stack.of(group)).toJSON().Resources[cfnId(group)] as Resource;
      expect(resource.Properties.LogGroupName, group.node.path).toBeUndefined();
      return `${Stack.of(group).stackName}-${cfnId(group)}-AbCdEfGhIjKl`;
    };
    const accessPatterns = patternsIn(accessLogQuery!);
    const functionPatterns = patternsIn(functionQuery!);
    expect(accessPatterns.length).toBeGreaterThan(0);
    expect(accessPatterns.some((pattern) => pattern.test(generatedName(stacks.api.httpApi.accessLogs))), 'access log').toBe(true);
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const name = generatedName(fn.node.findChild('Logs'));
      expect(functionPatterns.some((pattern) => pattern.test(name)), name).toBe(true);
    }
  });
});

describe("docs/deploy.md's Logs Insights recipe", () => {
  it('joins an HTTP access-log line to the lines of the function that served it, by the fields the recipe names', async () => {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
    const recipe = /<!-- logs-insights-recipe[^>]*-->\s*```text\n([\s\S]+?)```/.exec(docs)![1]!;
    const [accessLogQuery, functionQuery] = recipe.split(/^# 2\./m);

    // An access-log line as API Gateway writes it, from the synthesized stage's format.
    const [stage] = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage')).filter((candidate) => candidate.Properties.StageName === '$default');
    const apiRequestId = 'Q1b2c3d4e5f6g=';
    const lambdaRequestId = '8f5e2a1c-0000-4000-8000-000000000001';
    const context: Record<string, string> = { requestId: apiRequestId, 'integration.requestId': lambdaRequestId, status: '500', routeKey: 'GET /accounts/admin-status' };
    const accessLine = JSON.parse(
      (stage!.Properties.AccessLogSettings.Format as string).replace(/\$context\.([\w.]+)/g, (_, name: string) => context[name] ?? '-'),
    ) as Record<string, unknown>;

    // A function's line for the same request: the route group's real handler, failing on the
    // table it has no name for, logs its error.
    const handler = accountsHandler as unknown as (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
    const lines: string[] = [];
    // Powertools writes errors to stderr, the other levels to stdout.
    const writes = [process.stdout, process.stderr].map((stream) => vi.spyOn(stream, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true)));
    const event = { version: '2.0', routeKey: context.routeKey, rawPath: '/accounts/admin-status', headers: {}, requestContext: { requestId: apiRequestId, routeKey: context.routeKey, http: { method: 'GET', path: '/accounts/admin-status' } } };
    const response = await handler(event, { functionName: 'OddJobsApi-HttpAccounts', awsRequestId: lambdaRequestId, functionVersion: '$LATEST', memoryLimitInMB: '256', invokedFunctionArn: 'arn' });
    for (const write of writes) write.mockRestore();
    expect(response.statusCode).toBe(500);
    const functionLine = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.message === 'unhandled error')!;
    expect(functionLine).toBeDefined();

    // Query 1 reads fields the access log has; query 2 joins by pairs the two lines share.
    const accessFields = /fields (.+)/.exec(accessLogQuery!)![1]!.split(',').map((field) => field.trim()).filter((field) => !field.startsWith('@'));
    for (const field of accessFields) expect(accessLine, `access log field ${field}`).toHaveProperty(field);
    const joins = [...functionQuery!.matchAll(/(\w+) = "<(\w+)>"/g)].map(([, functionField, accessField]) => ({ functionField: functionField!, accessField: accessField! }));
    expect(joins.map((join) => join.accessField).sort()).toEqual(['integrationRequestId', 'requestId']);
    for (const { functionField, accessField } of joins) {
      expect(accessLine[accessField], accessField).toBeTypeOf('string');
      expect(functionLine[functionField], `${functionField} = <${accessField}>`).toBe(accessLine[accessField]);
    }
    const functionFields = /fields (.+)/.exec(functionQuery!)![1]!.split(',').map((field) => field.trim()).filter((field) => !field.startsWith('@'));
    for (const field of functionFields) expect(functionLine, `function log field ${field}`).toHaveProperty(field);
  });
});
