import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COGNITO_TRIGGERS, ENV, EVENT_RULES, SCHEDULE_TARGETS, STREAM_CONSUMERS } from '../../functions/routes.js';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { createUserPool, startCognitoLocal, type LocalUserPool } from './cognito.js';
import { serveCognitoProxy } from './cognito-proxy.js';
import { ensureTable, startDynamoDbLocal } from './dynamodb.js';
import { ruleFunctionName, serveEventBus, type LocalEventBus } from './eventbridge.js';
import type { Listening } from './http-util.js';
import { serveHttpGateway, type HttpApiLimits } from './http-gateway.js';
import { serveLambdaInvokeApi } from './lambda-runtime.js';
import { Mailbox } from './mailbox.js';
import { freePort } from './processes.js';
import { startLocalS3 } from './s3.js';
import { localFunctionArn, scheduleTargetName, serveScheduler, type LocalScheduler } from './scheduler.js';
import { serveQueues, type LocalQueues } from './sqs.js';
import { startStripeSimulator, type StripeSimulator } from './stripe-simulator.js';
import { readTableStream, type TableStreamReader } from './table-stream.js';
import { serveWebSocketGateway, type ConnectionLimits, type LocalWebSocketGateway } from './ws-gateway.js';

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
}

export interface LocalStack {
  config: RuntimeConfig;
  urls: { api: string; webSocket: string; cognito: string; mailbox: string; s3: string; dynamodb: string; events: string; queues: string; lambda: string; stripe: string; scheduler: string };
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
  scheduler: LocalScheduler;
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
const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const BUS_NAME = 'oddjobs-local';
const IMAGES_BUCKET = 'oddjobs-local-images';
const AUTO_RELEASE_GROUP = 'oddjobs-local-auto-release';

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
 * EventBridge bus. The official SDK clients inside the handlers reach them through the SDK's
 * standard endpoint variables (AWS_ENDPOINT_URL_<SERVICE>) — only endpoints differ from AWS.
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
    const tableName = options.tableName ?? 'oddjobs-local';
    await ensureTable(dynamoDbEndpoint, tableName);

    // The triggers for cognito-local; the rules' functions for the redrive (npm run redrive).
    const ruleFunctions = Object.fromEntries(Object.entries(EVENT_RULES).map(([name, rule]) => [ruleFunctionName(name), rule]));
    const lambda = await serveLambdaInvokeApi({ ...COGNITO_TRIGGERS, ...ruleFunctions }, await port('lambda'));
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

    const s3 = await startLocalS3({
      port: await port('s3'),
      directory: join(dataDir, 's3'),
      bucket: IMAGES_BUCKET,
      // The keys S3 knows, to check the signatures of presigned POSTs.
      secretAccessKeyOf: (accessKeyId) => (accessKeyId === LOCAL_CREDENTIALS.accessKeyId ? LOCAL_CREDENTIALS.secretAccessKey : undefined),
    });
    stops.push(s3.stop);
    const queues = await serveQueues({ port: await port('queues') });
    stops.push(queues.close);
    const events = await serveEventBus({ port: await port('events'), busName: BUS_NAME, deadLetter: queues.deadLetter });
    stops.push(events.close);
    const sockets = await serveWebSocketGateway({ port: await port('webSocket'), limits: options.webSocketLimits });
    stops.push(sockets.close);
    const stripe = await startStripeSimulator({ port: await port('stripe'), ...LOCAL_STRIPE_KEYS, stateFile: join(dataDir, 'stripe.json') });
    stops.push(stripe.close);

    const scheduleTargets = Object.fromEntries(Object.entries(SCHEDULE_TARGETS).map(([name, target]) => [scheduleTargetName(name), target]));
    const scheduler = await serveScheduler({ port: await port('scheduler'), targets: scheduleTargets, stateFile: join(dataDir, 'schedules.json') });
    stops.push(scheduler.close);

    const issuer = `${cognito.url}/${userPool.userPoolId}`;
    // The handlers' environment: what CDK sets in AWS, plus the SDK's endpoint overrides.
    Object.assign(process.env, {
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoDbEndpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: events.url,
      AWS_ENDPOINT_URL_SQS: queues.url,
      AWS_ENDPOINT_URL_SCHEDULER: scheduler.url,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognitoProxy.url,
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
      [ENV.tableName]: tableName,
      [ENV.imagesBucket]: IMAGES_BUCKET,
      [ENV.imagesBaseUrl]: `${s3.endpoint}/${IMAGES_BUCKET}`,
      [ENV.s3ForcePathStyle]: 'true',
      [ENV.eventBusName]: BUS_NAME,
      [ENV.socketsEndpoint]: sockets.managementEndpoint,
      [ENV.jobFeedQueueUrl]: queues.queueUrls.jobFeedShard,
      [ENV.userPoolId]: userPool.userPoolId,
      [ENV.userPoolClientId]: userPool.clientId,
      [ENV.tokenIssuer]: issuer,
      [ENV.localJwksUri]: `${issuer}/.well-known/jwks.json`,
      [ENV.stripeSecretKey]: LOCAL_STRIPE_KEYS.secretKey,
      [ENV.stripeWebhookSecret]: LOCAL_STRIPE_KEYS.webhookSecret,
      [ENV.stripeConnectWebhookSecret]: LOCAL_STRIPE_KEYS.connectWebhookSecret,
      [ENV.stripeApiUrl]: stripe.url,
      [ENV.autoReleaseScheduleGroup]: AUTO_RELEASE_GROUP,
      [ENV.autoReleaseTargetArn]: localFunctionArn(scheduleTargetName('autoRelease')),
      // The scheduler's role exists in AWS only; locally its ARN is carried and not checked.
      [ENV.autoReleaseSchedulerRoleArn]: `arn:aws:iam::000000000000:role/${AUTO_RELEASE_GROUP}-scheduler`,
    });
    if (options.autoReleaseSeconds) process.env[ENV.autoReleaseSeconds] = String(options.autoReleaseSeconds);

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

    const api = await serveHttpGateway({ port: await port('api'), limits: options.httpLimits });
    stops.push(api.close);
    stripe.setWebhookUrl(`${api.url}/webhooks/stripe`);
    stripe.setConnectWebhookUrl(`${api.url}/webhooks/stripe/connect`);

    return {
      config: {
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
      },
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
      },
      userPool,
      tableName,
      mailbox,
      events: { ...events, idle: eventsSettled },
      outboxRelay,
      queues,
      sockets,
      stripe,
      scheduler,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
