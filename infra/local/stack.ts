import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  COGNITO_TRIGGERS,
  DEFAULT_SECRET_MAX_AGE_SECONDS,
  ENV,
  EVENT_RULES,
  RECURRING_SCHEDULES,
  SCHEDULE_TARGETS,
  STREAM_CONSUMERS,
  STRIPE_WEBHOOK_ENDPOINTS,
  TOPIC_CONSUMERS,
  declaredEnvironment,
  type EnvKey,
  type FunctionDeclaration,
  type LOCAL_ONLY_VARIABLES,
} from '../../functions/routes.js';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
import { createUserPool, startCognitoLocal, type LocalUserPool } from './cognito.js';
import { serveCognitoProxy } from './cognito-proxy.js';
import { ensureTable, startDynamoDbLocal } from './dynamodb.js';
import { ruleFunctionName, serveEventBus, type LocalEventBus } from './eventbridge.js';
import { FaultSwitch, serveFaultControl } from './faults.js';
import type { Listening } from './http-util.js';
import { serveHttpGateway, type HttpApiLimits } from './http-gateway.js';
import { servePolicyProxy, type DynamoDbCall, type DynamoDbMeterHook, type LocalService } from './iam-proxy.js';
import {
  LOCAL_SECRET_ACCESS_KEY,
  configureFunctions,
  functionOfAccessKey,
  invocationCounts,
  invoke,
  serveLambdaInvokeApi,
  stopFunctions,
  updateEveryFunctionEnvironment,
  updateFunctionEnvironment,
} from './lambda-runtime.js';
import webPush from 'web-push';
import type { StripeKeys } from '../../functions/lib/stripe.js';
import type { VapidKeys } from '../../functions/lib/web-push.js';
import { Mailbox } from './mailbox.js';
import { freePort } from './processes.js';
import { PushReceiver } from './push-receiver.js';
import { startLocalS3 } from './s3.js';
import { localFunctionArn, scheduleTargetName, serveScheduler, type LocalScheduler } from './scheduler.js';
import { scheduleGroupArn, schedulerRoleStatements, schedulerTrustStatement } from '../scheduler-roles.js';
import { publishAllowed, TOPIC_PUBLISHERS, topicPolicyStatements } from '../topic-policies.js';
import { serveSecretsManager, type LocalSecretsManager } from './secrets-manager.js';
import { serveLocalSes } from './ses.js';
import { localTopicArn, snsEvent } from './sns.js';
import { serveQueues, type LocalQueues } from './sqs.js';
import { startStripeSimulator, type StripeSimulator } from './stripe-simulator.js';
import { readTableStream, type TableStreamReader } from './table-stream.js';
import { serveWebSocketGateway, type ConnectionLimits, type LocalWebSocketGateway } from './ws-gateway.js';
import { RATE_LIMITS } from '../../shared/limits.js';

/** Every port the local stack listens on; 0 lets the OS choose (tests). */
export interface LocalPorts {
  api: number;
  webSocket: number;
  /** The Cognito endpoint clients use (our proxy in front of cognito-local). */
  cognito: number;
  /** cognito-local itself (token issuer and JWKS). */
  cognitoBackend: number;
  s3: number;
  dynamodb: number;
  events: number;
  lambda: number;
  mailbox: number;
  /** Local SQS (the job feed's fan-out queue). */
  queues: number;
  /** The Stripe test-mode simulator. */
  stripe: number;
  /** The local EventBridge Scheduler (auto-release). */
  scheduler: number;
  /** Local SES v2 (the mailer's emails, delivered into the mailbox). */
  ses: number;
  /** The local Web Push receiver (push-receiver.ts). */
  pushReceiver: number;
  /** The fault switch's control endpoint (`npm run fault`). */
  faults: number;
  /** Local Secrets Manager (the Stripe keys' secret). */
  secretsManager: number;
}

export const DEFAULT_PORTS: LocalPorts = {
  api: 4000,
  webSocket: 4001,
  cognito: 9229,
  cognitoBackend: 9230,
  s3: 4569,
  dynamodb: 8000,
  events: 4010,
  lambda: 4011,
  mailbox: 4012,
  stripe: 12111,
  queues: 4013,
  scheduler: 4014,
  ses: 4015,
  pushReceiver: 4016,
  faults: 4017,
  secretsManager: 4018,
};

/** Every port chosen by the OS: for tests and benchmarks, which run beside `npm run dev`. */
export const RANDOM_PORTS = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((name) => [name, 0])) as unknown as LocalPorts;

export interface LocalStackOptions {
  /** Where state lives between runs (DynamoDB files, cognito-local's db, S3 objects, mail). */
  dataDir: string;
  ports?: Partial<LocalPorts>;
  /** Use an already running DynamoDB Local instead of starting one (tests share one). */
  dynamoDbEndpoint?: string;
  tableName?: string;
  /** What the local WebSocket gateway allows a connection (API Gateway's quotas by default; tests shorten them). */
  webSocketLimits?: Partial<ConnectionLimits>;
  /** What the local HTTP gateway allows a request (API Gateway's quotas by default; tests shorten them). */
  httpLimits?: Partial<HttpApiLimits>;
  /** Print each sent mail to the console (dev). */
  printMail?: boolean;
  /** The auto-release delay in seconds; unset, AUTO_RELEASE_SECONDS from the environment (.env) or the deploy's default. */
  autoReleaseSeconds?: number;
  /** How long after a release a job's hidden reviews are published; unset, REVIEW_PUBLICATION_SECONDS from the environment or 7 days. */
  reviewPublicationSeconds?: number;
  /** How long the live feed gathers changes of one job into one push (0: none); unset, LIVE_COALESCING_SECONDS from the environment or 1 s. */
  liveCoalescingSeconds?: number;
  /** Each client's budget per minute (shared/limits.ts `clientWrites`, `clientConnects`); tests lower it, or lift it with Infinity. */
  clientBudgetPerMinute?: number;
  /** How long functions use the keys read from a secret before reading them again; unset, SECRET_MAX_AGE_SECONDS from the environment or the deploy's default (tests of a rotation shorten it). */
  secretMaxAgeSeconds?: number;

  /** Where the web app is served, which links in emails lead to; `npm run dev`'s by default. */
  webOrigin?: string;
}

export interface LocalStack {
  config: RuntimeConfig;
  urls: {
    api: string;
    webSocket: string;
    cognito: string;
    mailbox: string;
    s3: string;
    dynamodb: string;
    events: string;
    queues: string;
    lambda: string;
    stripe: string;
    scheduler: string;
    pushReceiver: string;
    faults: string;
    secretsManager: string;
  };
  userPool: LocalUserPool;
  tableName: string;
  mailbox: Mailbox;
  /** The bus; its idle() also waits for the outbox relay to hand over every event written so far. */
  events: LocalEventBus;
  /** The outbox relay reading the table's stream (tests stop and restart it). */
  outboxRelay: TableStreamReader;
  queues: LocalQueues;
  sockets: LocalWebSocketGateway;
  stripe: StripeSimulator;
  /** Local Secrets Manager, and the ARN of the secret the functions read the Stripe keys from (filled with LOCAL_STRIPE_KEYS at start). */
  secrets: LocalSecretsManager & { stripeKeysArn: string };
  scheduler: LocalScheduler;
  /** A Web Push service on this machine: subscriptions that point at it, and what it decrypted. */
  pushReceiver: PushReceiver;
  /** Faults in the emulators, switched on and off while the stack runs (faults.ts, docs/faults.md). */
  faults: FaultSwitch;
  /** The local Lambda service: invoke a function by name and declaration, or change its environment or every function's; how often each was invoked. */
  functions: { invoke: typeof invoke; updateEnvironment: typeof updateFunctionEnvironment; updateEveryEnvironment: typeof updateEveryFunctionEnvironment; invocationCounts: typeof invocationCounts };
  /** Tells `observer` of every DynamoDB call a function makes, with its consumed capacity, until the returned stop. */
  observeDynamoDb(observer: (call: DynamoDbCall) => void): () => void;
  stop(): Promise<void>;
}

/** The simulator's test-mode keys: fixed, as they protect nothing. */
export const LOCAL_STRIPE_KEYS = {
  secretKey: 'sk_test_oddjobs_local',
  publishableKey: 'pk_test_oddjobs_local',
  webhookSecret: 'whsec_oddjobs_local',
  connectWebhookSecret: 'whsec_oddjobs_local_connect',
} as const;

const REGION = 'us-east-1';
/** The handlers' AWS credentials: s3rver accepts only this key; DynamoDB Local runs -sharedDb. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const BUS_NAME = 'oddjobs-local';
/** The table of `npm run dev` (options.tableName unset). */
export const DEV_TABLE_NAME = 'oddjobs-local';
const IMAGES_BUCKET = 'oddjobs-local-images';
const AUTO_RELEASE_GROUP = 'oddjobs-local-auto-release';
/** Where a deployment older than 28 Nov 2026 kept its auto-release schedules; locally none exists until a test makes it. */
const PREVIOUS_AUTO_RELEASE_GROUP = 'oddjobs-local-auto-release-before-2026-11-28';
/** The local mailer's sender, the one identity local SES accepts. */
export const LOCAL_MAIL_FROM = 'no-reply@oddjobs.local';
/** The local SES's one configuration set, which the mailer sends with. */
const LOCAL_MAIL_CONFIGURATION_SET = 'oddjobs-mail';
/** Where `npm run dev` serves the web app (LOCAL_WEB_PORT changes it). */
const DEFAULT_WEB_ORIGIN = 'http://127.0.0.1:5173';

/** Every variable a declaration can give its function (by ENV key): all but the local stack's own. */
type DeclaredVariable = Exclude<EnvKey, (typeof LOCAL_ONLY_VARIABLES)[number]>;

/** What this process's environment passes on to every function: the log threshold and the SDK's Node version notice. */
const passedThrough = () =>
  Object.fromEntries(['LOG_LEVEL', 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));

/** The local function name of a recurring schedule's target. */
export const recurringScheduleName = (name: string) => `recurring-${name}`;
/** The local schedule group of a recurring schedule (in AWS each has its own too). */
const recurringScheduleGroup = (name: string) => `oddjobs-local-${name}`;
const LOCAL_ACCOUNT = '000000000000';
/** The local execution role of a schedule group. */
const schedulerRoleArn = (group: string) => `arn:aws:iam::${LOCAL_ACCOUNT}:role/${group}-scheduler`;
/** The local name of a function subscribed to a topic (TOPIC_CONSUMERS). */
const topicConsumerName = (name: string) => `topic-${name}`;

/** The key that signs unsubscribe tokens, generated on the first run and kept, so old emails' links still work. */
function loadOrCreateUnsubscribeKey(dataDir: string): string {
  const file = join(dataDir, 'unsubscribe-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The VAPID keys, generated on the first run and kept in `dataDir` after: browsers subscribe
 * with the public key, so it must outlive a restart.
 */
function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
  const keys = { ...webPush.generateVAPIDKeys(), subject: 'mailto:push@oddjobs.test' };
  writeFileSync(file, JSON.stringify(keys, null, 2));
  return keys;
}

/** Remembers the user pool across runs: cognito-local keeps the pool, we keep its ids. */
function loadOrCreatePool(dataDir: string, create: () => Promise<LocalUserPool>): Promise<LocalUserPool> {
  const file = join(dataDir, 'user-pool.json');
  if (existsSync(file)) {
    const pool = JSON.parse(readFileSync(file, 'utf8')) as LocalUserPool;
    if (existsSync(join(dataDir, 'cognito', '.cognito', 'db', `${pool.userPoolId}.json`))) return Promise.resolve(pool);
  }
  return create().then((pool) => {
    writeFileSync(file, JSON.stringify(pool, null, 2));
    return pool;
  });
}

/**
 * Starts the whole backend on this machine: the same handler modules as in AWS, behind local
 * HTTP and WebSocket gateways, against DynamoDB Local, cognito-local, s3rver and a local
 * EventBridge bus. Each function runs in its own execution environment with its declared
 * environment (lambda-runtime.ts); its official SDK clients reach the emulators through the
 * SDK's standard endpoint variables (AWS_ENDPOINT_URL_<SERVICE>), by way of a policy proxy
 * that allows what its capabilities grant (iam-proxy.ts) — only endpoints differ from AWS.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const requested = { ...DEFAULT_PORTS, ...options.ports };
  const port = async (name: keyof LocalPorts) => (requested[name] === 0 ? freePort() : requested[name]);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error('stop failed', error));
  };

  try {
    let dynamoDbEndpoint = options.dynamoDbEndpoint;
    if (!dynamoDbEndpoint) {
      const dynamodb = await startDynamoDbLocal({ port: await port('dynamodb'), dataDir: join(dataDir, 'dynamodb') });
      stops.push(dynamodb.stop);
      dynamoDbEndpoint = dynamodb.endpoint;
    }
    const tableName = options.tableName ?? DEV_TABLE_NAME;
    await ensureTable(dynamoDbEndpoint, tableName);

    // The triggers for cognito-local; the functions invoked asynchronously (by the bus, the
    // scheduler, a topic) for the redrive of their dead-letter queues (npm run redrive).
    const ruleFunctions = Object.fromEntries(Object.entries(EVENT_RULES).map(([name, rule]) => [ruleFunctionName(name), rule]));
    const scheduleTargets = Object.fromEntries(Object.entries(SCHEDULE_TARGETS).map(([name, target]) => [scheduleTargetName(name), target]));
    const recurringTargets = Object.fromEntries(Object.entries(RECURRING_SCHEDULES).map(([name, target]) => [recurringScheduleName(name), target]));
    const topicConsumers = Object.fromEntries(Object.entries(TOPIC_CONSUMERS).map(([name, consumer]) => [topicConsumerName(name), consumer]));
    const lambda = await serveLambdaInvokeApi({ ...COGNITO_TRIGGERS, ...ruleFunctions, ...scheduleTargets, ...recurringTargets, ...topicConsumers }, await port('lambda'));
    stops.push(lambda.close);
    const cognitoDir = join(dataDir, 'cognito');
    const cognito = await startCognitoLocal({ dataDir: cognitoDir, port: await port('cognitoBackend'), lambdaEndpoint: lambda.url });
    stops.push(cognito.stop);
    const userPool = await loadOrCreatePool(dataDir, () => createUserPool(cognito.url, 'oddjobs-local'));

    const mailbox = new Mailbox(join(dataDir, 'mailbox.json'), options.printMail);
    const cognitoProxy = await serveCognitoProxy({
      port: await port('cognito'),
      cognitoUrl: cognito.url,
      cognitoDataDir: cognitoDir,
      userPoolId: userPool.userPoolId,
      mailbox,
    });
    stops.push(cognitoProxy.close);
    const mailboxServer: Listening = await mailbox.serve(await port('mailbox'));
    stops.push(mailboxServer.close);

    // The functions and their policy proxies stop after the emulators and gateways in front of
    // them: closing the WebSocket gateway still runs $disconnect for each open connection.
    const proxies: Listening[] = [];
    stops.push(async () => {
      await stopFunctions();
      await Promise.all(proxies.map((proxy) => proxy.close()));
    });

    const s3 = await startLocalS3({
      port: await port('s3'),
      directory: join(dataDir, 's3'),
      bucket: IMAGES_BUCKET,
      // The keys S3 knows, to check the signatures of presigned POSTs: this process's and each local function's.
      secretAccessKeyOf: (accessKeyId) =>
        accessKeyId === LOCAL_CREDENTIALS.accessKeyId ? LOCAL_CREDENTIALS.secretAccessKey : functionOfAccessKey(accessKeyId) && LOCAL_SECRET_ACCESS_KEY,
    });
    stops.push(s3.stop);
    const faults = new FaultSwitch();
    const faultControl = await serveFaultControl(faults, await port('faults'));
    stops.push(faultControl.close);
    const queues = await serveQueues({ port: await port('queues'), faults });
    stops.push(queues.close);
    const events = await serveEventBus({ port: await port('events'), busName: BUS_NAME, deadLetter: queues.deadLetter, faults });
    stops.push(events.close);
    const sockets = await serveWebSocketGateway({ port: await port('webSocket'), limits: options.webSocketLimits, faults });
    stops.push(sockets.close);
    const stripe = await startStripeSimulator({
      port: await port('stripe'),
      ...LOCAL_STRIPE_KEYS,
      // Subscribed as `npm run stripe:webhooks` subscribes the endpoints in Stripe.
      enabledEvents: { account: STRIPE_WEBHOOK_ENDPOINTS.account.events, connect: STRIPE_WEBHOOK_ENDPOINTS.connect.events },
      stateFile: join(dataDir, 'stripe.json'),
      faults,
    });
    stops.push(stripe.close);
    const secretsManager = await serveSecretsManager(await port('secretsManager'));
    stops.push(secretsManager.close);
    // As the operator fills the deploy's secret (docs/deploy.md): the simulator's keys.
    const stripeSecret: StripeKeys = { secretKey: LOCAL_STRIPE_KEYS.secretKey, webhookSecret: LOCAL_STRIPE_KEYS.webhookSecret, connectWebhookSecret: LOCAL_STRIPE_KEYS.connectWebhookSecret };
    const stripeKeysArn = secretsManager.create('oddjobs-local-stripe-keys', JSON.stringify(stripeSecret));

    // The configuration set's event destination: the SNS topic the feedback function is subscribed
    // to, with the policy the CDK app gives it (infra/topic-policies.ts), which SNS checks as SES publishes.
    const feedbackTopic = localTopicArn('ses-feedback');
    const localScope = { partition: 'aws', region: REGION, account: LOCAL_ACCOUNT };
    const feedbackTopicPolicy = topicPolicyStatements(feedbackTopic, LOCAL_ACCOUNT, TOPIC_PUBLISHERS.sesFeedback(localScope, LOCAL_MAIL_CONFIGURATION_SET));
    const ses = await serveLocalSes({
      port: await port('ses'),
      identity: LOCAL_MAIL_FROM,
      deliver: (mail) => mailbox.deliver(mail),
      configurationSet: LOCAL_MAIL_CONFIGURATION_SET,
      publishFeedback: async (event) => {
        const publisher = { topicArn: feedbackTopic, service: 'ses.amazonaws.com', account: LOCAL_ACCOUNT, sourceArn: `arn:aws:ses:${REGION}:${LOCAL_ACCOUNT}:configuration-set/${LOCAL_MAIL_CONFIGURATION_SET}` };
        if (!publishAllowed(feedbackTopicPolicy, publisher)) {
          throw new Error(`AuthorizationError: ${publisher.service} is not authorized to perform sns:Publish on ${feedbackTopic} (its topic policy has no Allow for it)`);
        }
        await invoke(topicConsumerName('sesFeedback'), TOPIC_CONSUMERS.sesFeedback, snsEvent(feedbackTopic, JSON.stringify(event)));
      },
    });
    stops.push(ses.close);

    // Each schedule group's execution role, as the CDK app builds it (infra/scheduler-roles.ts).
    const schedulerRoles = Object.fromEntries(
      [
        ...Object.keys(SCHEDULE_TARGETS).map((name) => ({ name, group: AUTO_RELEASE_GROUP, functionName: scheduleTargetName(name) })),
        ...Object.keys(RECURRING_SCHEDULES).map((name) => ({ name, group: recurringScheduleGroup(name), functionName: recurringScheduleName(name) })),
      ].map(({ name, group, functionName }) => {
        const scope = {
          account: LOCAL_ACCOUNT,
          groupArn: scheduleGroupArn('aws', REGION, LOCAL_ACCOUNT, group),
          targetArn: localFunctionArn(functionName),
          deadLetterQueueArn: queues.deadLetterQueueArn(name),
        };
        return [schedulerRoleArn(group), { trust: [schedulerTrustStatement(scope)], permissions: schedulerRoleStatements(scope) }];
      }),
    );
    const scheduler = await serveScheduler({
      port: await port('scheduler'),
      targets: { ...scheduleTargets, ...recurringTargets },
      roles: schedulerRoles,
      groups: [AUTO_RELEASE_GROUP, ...Object.keys(RECURRING_SCHEDULES).map(recurringScheduleGroup)],
      sendToQueue: queues.sendToDeadLetterQueue,
      // The targets' asynchronous invocations fail over to the same queue, as in the CDK app.
      onFailure: Object.fromEntries([
        ...Object.keys(SCHEDULE_TARGETS).map((name) => [scheduleTargetName(name), queues.deadLetterQueueArn(name)]),
        ...Object.keys(RECURRING_SCHEDULES).map((name) => [recurringScheduleName(name), queues.deadLetterQueueArn(name)]),
      ]),
      stateFile: join(dataDir, 'schedules.json'),
    });
    stops.push(scheduler.close);

    const pushReceiver = new PushReceiver();
    const pushReceiverServer = await pushReceiver.serve(await port('pushReceiver'));
    stops.push(pushReceiverServer.close);
    const vapidKeys = loadOrCreateVapidKeys(dataDir);

    const issuer = `${cognito.url}/${userPool.userPoolId}`;
    // Each function's AWS calls go through a policy proxy that allows what its capabilities grant.
    const dynamoDbObservers = new Set<(call: DynamoDbCall) => void>();
    const dynamoDbMeter: DynamoDbMeterHook = {
      active: () => dynamoDbObservers.size > 0,
      record: (call) => dynamoDbObservers.forEach((observer) => observer(call)),
    };
    const proxied = async (service: LocalService, target: string) => {
      const proxy = await servePolicyProxy({
        service,
        target,
        identify: functionOfAccessKey,
        ...(service === 'dynamodb' ? { meter: dynamoDbMeter, faults } : {}),
      });
      proxies.push(proxy);
      return proxy.url;
    };
    const endpoints = {
      dynamodb: await proxied('dynamodb', dynamoDbEndpoint),
      s3: await proxied('s3', s3.endpoint),
      events: await proxied('events', events.url),
      sqs: await proxied('sqs', queues.url),
      cognito: await proxied('cognito-idp', cognitoProxy.url),
      sockets: await proxied('execute-api', sockets.managementEndpoint),
      scheduler: await proxied('scheduler', scheduler.url),
      ses: await proxied('ses', ses.url),
      secretsManager: await proxied('secretsmanager', secretsManager.url),
    };
    // The HTTP gateway starts last, but emails link to it (one-click unsubscribe): its port now.
    const apiPort = await port('api');
    const autoReleaseSeconds = options.autoReleaseSeconds ? String(options.autoReleaseSeconds) : process.env[ENV.autoReleaseSeconds];
    const reviewPublicationSeconds = options.reviewPublicationSeconds ? String(options.reviewPublicationSeconds) : process.env[ENV.reviewPublicationSeconds];
    const liveCoalescingSeconds = options.liveCoalescingSeconds !== undefined ? String(options.liveCoalescingSeconds) : process.env[ENV.liveCoalescingSeconds];
    const secretMaxAgeSeconds = String(options.secretMaxAgeSeconds ?? (process.env[ENV.secretMaxAgeSeconds] || DEFAULT_SECRET_MAX_AGE_SECONDS));
    const proxiedQueueUrl = (name: string) => new URL(new URL(queues.queueUrls[name]!).pathname, endpoints.sqs).href;
    const jobFeedQueueUrl = proxiedQueueUrl('jobFeedShard');
    // What each declared variable is locally: its value, the local-only variables that stand
    // in for it, or nothing where the setting exists in AWS only.
    const local: Record<DeclaredVariable, Record<string, string>> = {
      tableName: { [ENV.tableName]: tableName },
      // s3rver needs path-style requests.
      imagesBucket: { [ENV.imagesBucket]: IMAGES_BUCKET, [ENV.s3ForcePathStyle]: 'true' },
      imagesBaseUrl: { [ENV.imagesBaseUrl]: `${s3.endpoint}/${IMAGES_BUCKET}` },
      eventBusName: { [ENV.eventBusName]: BUS_NAME },
      socketsEndpoint: { [ENV.socketsEndpoint]: endpoints.sockets },
      jobFeedQueueUrl: { [ENV.jobFeedQueueUrl]: jobFeedQueueUrl },
      userPoolId: { [ENV.userPoolId]: userPool.userPoolId },
      userPoolClientId: { [ENV.userPoolClientId]: userPool.clientId },
      tokenIssuer: { [ENV.tokenIssuer]: issuer, [ENV.localJwksUri]: `${issuer}/.well-known/jwks.json` },
      // No place index locally: the offline geocoder answers alone.
      placeIndexName: {},
      // The secret holding the simulator's keys, and the simulator's address.
      stripeSecretArn: { [ENV.stripeSecretArn]: stripeKeysArn, [ENV.stripeApiUrl]: stripe.url },
      secretMaxAgeSeconds: { [ENV.secretMaxAgeSeconds]: secretMaxAgeSeconds },
      // The keys generated into dataDir stand in for the secret; pushes may go to the local receiver.
      vapidSecretArn: { [ENV.vapidKeys]: JSON.stringify(vapidKeys), [ENV.localPushReceiverOrigin]: pushReceiverServer.url },
      // Locally the page's Origin header is used (the dev server's port varies).
      siteOrigin: {},
      // Locally the first admin to sign up takes the seat.
      adminSeatByDeploy: {},
      // Unset, the deploy's default delay.
      autoReleaseSeconds: autoReleaseSeconds ? { [ENV.autoReleaseSeconds]: autoReleaseSeconds } : {},
      reviewPublicationSeconds: reviewPublicationSeconds ? { [ENV.reviewPublicationSeconds]: reviewPublicationSeconds } : {},
      liveCoalescingSeconds: liveCoalescingSeconds ? { [ENV.liveCoalescingSeconds]: liveCoalescingSeconds } : {},
      clientBudgetPerMinute: { [ENV.clientBudgetPerMinute]: String(options.clientBudgetPerMinute ?? RATE_LIMITS.clientWrites.limit) },
      autoReleaseScheduleGroup: { [ENV.autoReleaseScheduleGroup]: AUTO_RELEASE_GROUP },
      autoReleaseTargetArn: { [ENV.autoReleaseTargetArn]: localFunctionArn(scheduleTargetName('autoRelease')) },
      // The local scheduler checks this role's trust and permissions as IAM would (schedulerRoles).
      autoReleaseSchedulerRoleArn: { [ENV.autoReleaseSchedulerRoleArn]: schedulerRoleArn(AUTO_RELEASE_GROUP) },
      autoReleaseDeadLetterQueueArn: { [ENV.autoReleaseDeadLetterQueueArn]: queues.deadLetterQueueArn('autoRelease') },
      previousAutoReleaseScheduleGroup: { [ENV.previousAutoReleaseScheduleGroup]: PREVIOUS_AUTO_RELEASE_GROUP },
      mailQueueUrl: { [ENV.mailQueueUrl]: proxiedQueueUrl('mailer') },
      mailFromAddress: { [ENV.mailFromAddress]: LOCAL_MAIL_FROM },
      mailConfigurationSet: { [ENV.mailConfigurationSet]: LOCAL_MAIL_CONFIGURATION_SET },
      // The key itself stands in for the secret.
      unsubscribeSecretArn: { [ENV.unsubscribeKey]: loadOrCreateUnsubscribeKey(dataDir) },
      mailLinkOrigin: { [ENV.mailLinkOrigin]: options.webOrigin ?? DEFAULT_WEB_ORIGIN },
      apiUrl: { [ENV.apiUrl]: `http://127.0.0.1:${apiPort}` },
    };
    const sdkSettings = { AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED', AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED' };
    configureFunctions({
      platform: {
        AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
        AWS_ENDPOINT_URL_S3: endpoints.s3,
        AWS_ENDPOINT_URL_EVENTBRIDGE: endpoints.events,
        AWS_ENDPOINT_URL_SQS: endpoints.sqs,
        AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: endpoints.cognito,
        AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
        AWS_ENDPOINT_URL_SESV2: endpoints.ses,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoints.secretsManager,
        ...sdkSettings,
        ...passedThrough(),
      },
      declared: (declaration: FunctionDeclaration) =>
        Object.assign({}, ...declaredEnvironment(declaration).map((key) => local[key as DeclaredVariable])) as Record<string, string>,
    });
    // This process's own environment, for what runs here rather than as a function (the demo
    // data's seeding, tests that read the table): every variable, straight to the emulators.
    Object.assign(process.env, {
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoDbEndpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: events.url,
      AWS_ENDPOINT_URL_SQS: queues.url,
      AWS_ENDPOINT_URL_SCHEDULER: scheduler.url,
      AWS_ENDPOINT_URL_SESV2: ses.url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.url,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognitoProxy.url,
      ...sdkSettings,
      ...Object.assign({}, ...Object.values(local)),
      [ENV.socketsEndpoint]: sockets.managementEndpoint,
      [ENV.jobFeedQueueUrl]: queues.queueUrls.jobFeedShard,
      [ENV.mailQueueUrl]: queues.queueUrls.mailer,
    });

    // The recurring schedules (EventBridge Scheduler rate schedules in AWS) run on a timer of
    // their period, through the local scheduler: the same role checks and dead letters.
    const recurringTimers = Object.entries(RECURRING_SCHEDULES).map(([name, declaration]) =>
      setInterval(() => {
        void scheduler.run(name, recurringScheduleGroup(name), {
          Arn: localFunctionArn(recurringScheduleName(name)),
          RoleArn: schedulerRoleArn(recurringScheduleGroup(name)),
          Input: '{}',
          DeadLetterConfig: { Arn: queues.deadLetterQueueArn(name) },
        });
      }, declaration.rateMinutes * 60_000).unref(),
    );
    stops.push(async () => recurringTimers.forEach(clearInterval));

    const outboxRelay = readTableStream({
      endpoint: dynamoDbEndpoint,
      tableName,
      name: 'outboxRelay',
      consumer: STREAM_CONSUMERS.outboxRelay,
      checkpointFile: join(dataDir, 'outbox-relay.json'),
    });
    stops.push(outboxRelay.stop);
    /** Settled when every event written so far went through the relay and the bus, and the events their handlers wrote too. */
    const eventsSettled = async () => {
      await outboxRelay.drain();
      do await events.idle();
      while ((await outboxRelay.drain()) > 0);
    };

    const api = await serveHttpGateway({ port: apiPort, limits: options.httpLimits });
    stops.push(api.close);
    stripe.setWebhookUrl(`${api.url}${STRIPE_WEBHOOK_ENDPOINTS.account.path}`);
    stripe.setConnectWebhookUrl(`${api.url}${STRIPE_WEBHOOK_ENDPOINTS.connect.path}`);

    return {
      // Checked as the web stack checks its file at synth: the web app trusts /config.json.
      config: runtimeConfigSchema.parse({
        mode: 'local',
        region: REGION,
        apiUrl: api.url,
        webSocketUrl: sockets.webSocketUrl,
        userPoolId: userPool.userPoolId,
        userPoolClientId: userPool.clientId,
        userPoolEndpoint: cognitoProxy.url,
        authFlowType: 'USER_PASSWORD_AUTH',
        mailboxUrl: mailboxServer.url,
        stripe: { publishableKey: LOCAL_STRIPE_KEYS.publishableKey, simulatorUrl: stripe.url },
      } satisfies RuntimeConfig),
      urls: {
        api: api.url,
        webSocket: sockets.webSocketUrl,
        cognito: cognitoProxy.url,
        mailbox: mailboxServer.url,
        s3: s3.endpoint,
        dynamodb: dynamoDbEndpoint,
        events: events.url,
        queues: queues.url,
        lambda: lambda.url,
        stripe: stripe.url,
        scheduler: scheduler.url,
        pushReceiver: pushReceiverServer.url,
        faults: faultControl.url,
        secretsManager: secretsManager.url,
      },
      userPool,
      tableName,
      mailbox,
      events: { ...events, idle: eventsSettled },
      outboxRelay,
      queues,
      sockets,
      stripe,
      secrets: { ...secretsManager, stripeKeysArn },
      scheduler,
      pushReceiver,
      faults,
      functions: { invoke, updateEnvironment: updateFunctionEnvironment, updateEveryEnvironment: updateEveryFunctionEnvironment, invocationCounts },
      observeDynamoDb: (observer) => {
        dynamoDbObservers.add(observer);
        return () => dynamoDbObservers.delete(observer);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
