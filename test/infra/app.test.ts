import { spawnSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COGNITO_TRIGGERS,
  API_STAGE_THROTTLE,
  DEPLOY_FUNCTIONS,
  ENV,
  EVENT_RULES,
  HTTP_ROUTE_GROUPS,
  QUEUE_CONSUMERS,
  STREAM_CONSUMERS,
  WEBSOCKET_API,
  CAPABILITY_GRANTS,
  LOCAL_ONLY_VARIABLES,
  declaredEnvironment,
  type EnvKey,
  type FunctionDeclaration,
} from '../../functions/routes.js';
import { STRIPE_CLIENT_LIMITS } from '../../functions/lib/stripe.js';
import { UPLOAD_STATE_TAG } from '../../functions/lib/images.js';
import { TABLE_DESIGN } from '../../functions/table.js';
import { ADMIN_GROUP } from '../../shared/roles.js';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
import { HttpApi, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { OperationalAlarms } from '../../infra/constructs/alarms.js';
import { AppFunction, FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS } from '../../infra/constructs/app-function.js';
import { REPO_ROOT } from '../../infra/constructs/repo.js';
import { SITE_HEADER_CSP } from '../../infra/stacks/site-stack.js';
import { buildApp, type OddJobsStacks } from '../../infra/stacks/build-app.js';
import { NON_HTTP_DECLARATIONS } from '../support/routes.js';
import { USER_POOL_SETTINGS } from '../../infra/user-pool-settings.js';

/** The values a deploy must pass (the test app gives them as options, a deploy as context). */
const REQUIRED_SETTINGS = { stripePublishableKey: 'pk_test_infra', adminEmail: 'owner@example.com' };

/** `new App()` ignores cdk.json; the tests synthesize with the same feature flags as the CLI. */
const CDK_CONTEXT = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;

// Synthesized templates are untyped JSON; the assertions below say what they expect of it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resource = { Type: string; Properties: any; DeletionPolicy?: string; DependsOn?: string[] };

/**
 * What Lambda itself does with a function's role, besides what its code calls: write its log
 * group, and read its event source (its queue, the table's stream) or send to its dead-letter queue.
 */
const platformActionsOf = (declaration: FunctionDeclaration): string[] => {
  const among = (declarations: Record<string, FunctionDeclaration>) => Object.values(declarations).includes(declaration);
  const deadLetters = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
  return [
    'logs:CreateLogStream',
    'logs:PutLogEvents',
    ...(among(QUEUE_CONSUMERS) ? ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'] : []),
    ...(among(STREAM_CONSUMERS) ? ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams', ...deadLetters] : []),
    ...(among(EVENT_RULES) ? deadLetters : []),
  ];
};

const routeGroups = Object.values(HTTP_ROUTE_GROUPS);
const declaredRoutes = routeGroups.flatMap((group) => Object.entries(group.routes).map(([routeKey, access]) => ({ group, routeKey, access })));
const allDeclarations = [...routeGroups, ...NON_HTTP_DECLARATIONS];

let tempDir: string;
let app: App;
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
}, 120_000);

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
      // Tracing off, not half on (docs/decisions.md).
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
      const declared = new Set<string>(fn.declaration.capabilities.flatMap((capability) => CAPABILITY_GRANTS[capability].actions));
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
    expect(table!.DeletionPolicy).toBe('Retain');
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
    expect(bucket.DeletionPolicy).toBe('Retain');
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
    expect(pool.DeletionPolicy).toBe('Retain');
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
  it('builds one function per route group and adds each declared route once, on its group\'s function', () => {
    const api = template(stacks.api).toJSON().Resources as Record<string, Resource>;
    const httpApiId = cfnId(stacks.api.httpApi.api);
    const httpRoutes = Object.values(api).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.ApiId.Ref === httpApiId);
    expect(httpRoutes.map((route) => route.Properties.RouteKey).sort()).toEqual(declaredRoutes.map(({ routeKey }) => routeKey).sort());

    for (const group of routeGroups) expect(functionsFor(group.entry), group.entry).toHaveLength(1);
    for (const { group, routeKey } of declaredRoutes) {
      const route = httpRoutes.find((r) => r.Properties.RouteKey === routeKey)!;
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
      const functionId = cfnId(functionsFor(group.entry)[0]!.function);
      expect(api[integrationId]!.Properties.IntegrationUri, routeKey).toEqual(getAttArn(functionId));
    }
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

    const routes = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Route'));
    for (const { routeKey, access } of declaredRoutes) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey)!;
      if (access === 'public') {
        expect(route.Properties.AuthorizationType, routeKey).toBe('NONE');
        expect(route.Properties.AuthorizerId, routeKey).toBeUndefined();
      } else {
        expect(route.Properties, routeKey).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: ref(jwtAuthorizerId) });
      }
    }
  });

  it('logs and throttles the HTTP API and allows browser calls with a token', () => {
    template(stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({ AllowHeaders: ['Authorization', 'Content-Type'] }),
    });
    template(stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: API_STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: API_STAGE_THROTTLE.burstLimit },
    });
  });

  it('throttles both stages with the declaration the local gateways enforce', () => {
    const stages = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage'));
    expect(stages.map((stage) => stage.Properties.DefaultRouteSettings)).toEqual(
      stages.map(() => expect.objectContaining({ ThrottlingRateLimit: API_STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: API_STAGE_THROTTLE.burstLimit })),
    );
    expect(stages.length).toBe(2);
  });

  it('logs every WebSocket connect, message and disconnect, with the account role API Gateway needs for it', () => {
    const api = template(stacks.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'live',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('connectionId') },
    });
    const accounts = Object.entries(resourcesOf(stacks.api, 'AWS::ApiGateway::Account'));
    expect(accounts).toHaveLength(1);
    const [accountId, account] = accounts[0]!;
    expect(account.Properties.CloudWatchRoleArn).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    const [stage] = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Stage')).filter((candidate) => candidate.Properties.StageName === 'live');
    expect(stage!.DependsOn).toContain(accountId);
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
      const statements = Object.values(resourcesOf(stacks.api, 'AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([ref(roleId)]))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
      const manage = statements.find((statement: { Action: string }) => statement.Action === 'execute-api:ManageConnections');
      expect(JSON.stringify(manage?.Resource), fn.declaration.entry).toMatch(/\/live\/\*\/@connections\/\*/);
    }
  });

  it('lets the geocoding functions search the place index, whose results may be stored', () => {
    template(stacks.api).hasResourceProperties('AWS::Location::PlaceIndex', { DataSourceConfiguration: { IntendedUse: 'Storage' } });
    const geocoders = functions.filter((fn) => fn.declaration.capabilities.includes('geocoding'));
    for (const fn of geocoders) {
      template(stacks.api).hasResourceProperties('AWS::IAM::Policy', {
        Roles: [ref(cfnId(fn.role))],
        PolicyDocument: {
          Statement: Match.arrayWith([
            {
              Action: ['geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForText'],
              Effect: 'Allow',
              Resource: { 'Fn::GetAtt': [cfnId(stacks.api.placeIndex), 'IndexArn'] },
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
    const rules = Object.values(resourcesOf(stacks.api, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(Object.keys(EVENT_RULES).length);
    const busId = cfnId(stacks.api.eventBus);
    for (const declaration of Object.values(EVENT_RULES)) {
      const functionId = cfnId(functionsFor(declaration.entry)[0]!.function);
      const rule = rules.find((r) => JSON.stringify(r.Properties.Targets[0].Arn) === JSON.stringify(getAttArn(functionId)))!;
      expect(rule, declaration.entry).toBeDefined();
      expect(rule.Properties.EventBusName).toEqual(ref(busId));
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

describe('site and web stacks', () => {
  it('serves the SPA from a private bucket through CloudFront, falling back to index.html', () => {
    template(stacks.site).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https', ResponseHeadersPolicyId: Match.anyValue() }),
        CustomErrorResponses: [403, 404].map((code) => Match.objectLike({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html' })),
        Origins: [Match.objectLike({ OriginAccessControlId: Match.anyValue() })],
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      }),
    });
    for (const bucket of Object.values(resourcesOf(stacks.site, 'AWS::S3::Bucket'))) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
  });

  it('sends a content security policy that admits the APIs, Cognito, Stripe and the images bucket', () => {
    // The header: no framing, and what names no host of a later stack.
    const [policy] = Object.values(resourcesOf(stacks.site, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const headers = policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers).toMatchObject({
      FrameOptions: { FrameOption: 'DENY' },
      ContentTypeOptions: { Override: true },
      StrictTransportSecurity: expect.objectContaining({ IncludeSubdomains: true }),
      ContentSecurityPolicy: { ContentSecurityPolicy: SITE_HEADER_CSP, Override: true },
    });
    expect(SITE_HEADER_CSP).toContain("frame-ancestors 'none'");
    // index.html: the exact hosts, first in the head (the browser enforces both policies).
    const deployment = Object.values(resourcesOf(stacks.web, 'Custom::CDKBucketDeployment')).find((resource) => resource.Properties.DistributionPaths)!;
    const indexHtml = staged(deployment, 'index.html');
    expect(indexHtml).toMatch(/^<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="[^"]+" \/><title>/);
    for (const expected of [
      "default-src 'self'",
      "script-src 'self' https://js.stripe.com",
      'frame-src https://js.stripe.com https://hooks.stripe.com',
      'https://api.stripe.com',
      'https://cognito-idp.',
    ]) {
      expect(indexHtml).toContain(expected);
    }
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const source of ['HttpApi', 'WebSocketApi', 'JobImages', 'ImagesCdn']) expect(markers).toContain(source);
  });

  it("admits browser calls and uploads from the site's origin only, and returns Stripe's onboarding there", () => {
    // The distribution's domain, as another stack reads it.
    const siteDomain = /SiteDistribution\w*DomainName/;
    const [api] = Object.values(resourcesOf(stacks.api, 'AWS::ApiGatewayV2::Api')).filter((resource) => resource.Properties.ProtocolType === 'HTTP');
    const allowed = JSON.stringify(api!.Properties.CorsConfiguration.AllowOrigins);
    expect(allowed).toContain('https://');
    expect(allowed).toMatch(siteDomain);
    expect(allowed).not.toContain('*');
    const images = resourcesOf(stacks.data, 'AWS::S3::Bucket')[cfnId(stacks.data.imagesBucket)]!;
    const uploadsFrom = JSON.stringify(images.Properties.CorsConfiguration.CorsRules.map((rule: { AllowedOrigins: unknown }) => rule.AllowedOrigins));
    expect(uploadsFrom).toMatch(siteDomain);
    expect(uploadsFrom).not.toContain('*');
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
    expect(Object.keys(config).sort()).toEqual(['adminSeatByDeploy', 'apiUrl', 'authFlowType', 'mode', 'region', 'stripe', 'userPoolClientId', 'userPoolId', 'webSocketUrl']);
    // The SPA reads the file with the shared schema: what the stack writes must pass it.
    expect(runtimeConfigSchema.safeParse({ ...config, apiUrl: 'x', webSocketUrl: 'x', userPoolId: 'x', userPoolClientId: 'x' }).success).toBe(true);
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const source of ['HttpApi', 'WebSocketApi', 'UserPool', 'UserPoolWebClient']) expect(markers).toContain(source);
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

describe('alarms', () => {
  const alarms = () => Object.values(resourcesOf(stacks.api, 'AWS::CloudWatch::Alarm'));
  const watched = (alarm: Resource) => JSON.stringify(alarm.Properties.Dimensions ?? alarm.Properties.Metrics);

  it('alarms on errors and throttles of every function, api and auth stacks alike', () => {
    for (const fn of functions) {
      // By Ref in the api stack, through the auth stack's export for the Cognito triggers.
      const name = Stack.of(fn) === stacks.api ? JSON.stringify(ref(cfnId(fn.function))) : cfnId(fn.function);
      for (const metric of ['Errors', 'Throttles']) {
        const matching = alarms().filter((alarm) => alarm.Properties.MetricName === metric && watched(alarm).includes(name));
        expect(matching, `${metric} of ${fn.declaration.entry}`).toHaveLength(1);
      }
    }
  });

  it('alarms on any message in any dead-letter queue', () => {
    const deadLetterQueues = Object.entries(resourcesOf(stacks.api, 'AWS::SQS::Queue')).filter(([id]) => id.includes('DeadLetterQueue'));
    expect(deadLetterQueues.length).toBe(Object.keys(EVENT_RULES).length + Object.keys(QUEUE_CONSUMERS).length + Object.keys(STREAM_CONSUMERS).length);
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
    const [topicId] = Object.keys(resourcesOf(stacks.api, 'AWS::SNS::Topic'));
    for (const alarm of alarms()) {
      expect(alarm.Properties.AlarmActions).toEqual([ref(topicId!)]);
      expect(alarm.Properties.OKActions).toEqual([ref(topicId!)]);
    }
    template(stacks.api).resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('mails the alarms only to an alarmEmail given', () => {
    template(stacks.api).resourceCountIs('AWS::SNS::Subscription', 0);
    const stack = new Stack(new App(), 'Watched');
    const fn = new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => {}') });
    const httpApi = new HttpApi(stack, 'Http');
    const webSocketStage = new WebSocketStage(stack, 'Stage', { webSocketApi: new WebSocketApi(stack, 'Ws'), stageName: 'live' });
    const table = new dynamodb.TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
    new OperationalAlarms(stack, 'Alarms', { functions: [fn], deadLetterQueues: [], httpApi, webSocketStage, table, alarmEmail: 'ops@example.com' });
    Template.fromStack(stack).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });
});

describe('stacks', () => {
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
