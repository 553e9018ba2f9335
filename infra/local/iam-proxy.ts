import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { CAPABILITY_GRANTS, type Capability } from '../../functions/routes.js';
import type { FaultSwitch } from './faults.js';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';
import type { LocalFunction } from './lambda-runtime.js';

/** The AWS services the local functions call, by their signing names. */
export type LocalService = 'dynamodb' | 'events' | 'sqs' | 's3' | 'cognito-idp' | 'execute-api' | 'scheduler' | 'ses' | 'secretsmanager';

/** s3rver knows one access key; it checks no SigV4 signature, so the proxy may name that key instead. */
const S3RVER_ACCESS_KEY_ID = 'S3RVER';

/** The access key id a SigV4 request is signed with (header or presigned query), if it is signed. */
export function signingAccessKeyId(req: IncomingMessage): string | undefined {
  const header = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '');
  if (header) return header[1];
  const query = new URL(req.url ?? '/', 'http://local').searchParams.get('X-Amz-Credential');
  return query?.split('/')[0] || undefined;
}

/** The JSON protocols name the operation in X-Amz-Target ("DynamoDB_20120810.GetItem"). */
const targetOperation = (req: IncomingMessage) => String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';

/** The transaction's items, each authorized as its own action, as IAM does. */
const TRANSACT_ITEM_ACTIONS: Readonly<Record<string, string>> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };

function dynamoDbActions(req: IncomingMessage, body: Buffer): string[] {
  const operation = targetOperation(req);
  if (operation !== 'TransactWriteItems' && operation !== 'TransactGetItems') return [`dynamodb:${operation}`];
  const { TransactItems = [] } = JSON.parse(body.toString('utf8') || '{}') as { TransactItems?: Array<Record<string, unknown>> };
  return TransactItems.flatMap((item) => Object.keys(item).map((kind) => `dynamodb:${TRANSACT_ITEM_ACTIONS[kind] ?? kind}`));
}

/** S3's REST API: the action follows from method, path (bucket or object) and sub-resource. */
function s3Actions(req: IncomingMessage): string[] {
  const url = new URL(req.url ?? '/', 'http://local');
  const [, , ...key] = url.pathname.split('/');
  const onObject = key.join('/') !== '';
  const tagging = url.searchParams.has('tagging');
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      if (!onObject) return ['s3:ListBucket'];
      return [tagging ? 's3:GetObjectTagging' : 's3:GetObject'];
    case 'PUT':
      if (tagging) return ['s3:PutObjectTagging'];
      return req.headers['x-amz-tagging'] ? ['s3:PutObject', 's3:PutObjectTagging'] : ['s3:PutObject'];
    case 'DELETE':
      return [tagging ? 's3:DeleteObjectTagging' : 's3:DeleteObject'];
    case 'POST':
      // DeleteObjects is authorized as s3:DeleteObject on each key.
      if (url.searchParams.has('delete')) return ['s3:DeleteObject'];
      return ['s3:PutObject'];
    default:
      return [`s3:${req.method ?? ''}`];
  }
}

/**
 * EventBridge Scheduler's REST API: schedules on `/schedules[/{name}]` (creating one passes its
 * target's role, which IAM checks too) and schedule groups on `/schedule-groups/{name}`.
 */
function schedulerActions(req: IncomingMessage): string[] {
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  if (path.startsWith('/schedule-groups')) {
    const group = { POST: 'CreateScheduleGroup', DELETE: 'DeleteScheduleGroup' }[req.method ?? ''] ?? (path === '/schedule-groups' ? 'ListScheduleGroups' : 'GetScheduleGroup');
    return [`scheduler:${group}`];
  }
  switch (req.method) {
    case 'POST':
      return ['scheduler:CreateSchedule', 'iam:PassRole'];
    case 'PUT':
      return ['scheduler:UpdateSchedule', 'iam:PassRole'];
    case 'DELETE':
      return ['scheduler:DeleteSchedule'];
    default:
      return [path === '/schedules' ? 'scheduler:ListSchedules' : 'scheduler:GetSchedule'];
  }
}

function actionsOf(service: LocalService, req: IncomingMessage, body: Buffer): string[] {
  switch (service) {
    case 'dynamodb':
      return dynamoDbActions(req, body);
    case 's3':
      return s3Actions(req);
    case 'sqs': {
      const operation = targetOperation(req);
      return [`sqs:${operation.replace(/Batch$/, '')}`];
    }
    case 'execute-api':
      return ['execute-api:ManageConnections'];
    case 'scheduler':
      return schedulerActions(req);
    case 'ses': {
      // SES v2's REST API: SendEmail is the one call the local functions make.
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      return [req.method === 'POST' && path === '/v2/email/outbound-emails' ? 'ses:SendEmail' : `ses:${req.method ?? ''} ${path}`];
    }
    default:
      return [`${service}:${targetOperation(req)}`];
  }
}

/** The capabilities whose grants hold this action (functions/routes.ts). */
const grantingCapabilities = (action: string) =>
  (Object.keys(CAPABILITY_GRANTS) as Capability[]).filter((capability) => (CAPABILITY_GRANTS[capability].actions as readonly string[]).includes(action));

/** The message IAM gives, plus what the declaration lacks. */
function deniedMessage(fn: LocalFunction, action: string): string {
  const capabilities = grantingCapabilities(action);
  const lacking = capabilities.length
    ? `its declaration (${fn.declaration.entry}) lacks the capability ${capabilities.map((capability) => `'${capability}'`).join(' or ')}`
    : 'no capability grants it';
  return (
    `User: arn:aws:sts::000000000000:assumed-role/${fn.name}/${fn.name} is not authorized to perform: ${action} ` +
    `because no identity-based policy allows the ${action} action (local function ${fn.name}: ${lacking})`
  );
}

/** AccessDenied in each protocol's own error shape, so the SDK throws its AccessDenied error. */
function sendDenied(service: LocalService, res: ServerResponse, message: string): void {
  const requestId = randomUUID();
  if (service === 's3') {
    res.writeHead(403, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</Message><RequestId>${requestId}</RequestId></Error>`);
    return;
  }
  const restJson = service === 'execute-api' || service === 'scheduler' || service === 'ses';
  const status = restJson ? 403 : 400;
  const contentType = service === 'dynamodb' ? 'application/x-amz-json-1.0' : restJson ? 'application/json' : 'application/x-amz-json-1.1';
  res.writeHead(status, { 'content-type': contentType, 'x-amzn-errortype': 'AccessDeniedException', 'x-amzn-requestid': requestId });
  res.end(JSON.stringify({ __type: 'AccessDeniedException', message, Message: message }));
}

function sendUnrecognized(service: LocalService, res: ServerResponse, accessKeyId: string): void {
  const message = `The security token included in the request is invalid: no local function signs with ${accessKeyId}`;
  if (service === 's3') {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidAccessKeyId</Code><Message>${message}</Message></Error>`);
    return;
  }
  res.writeHead(service === 'execute-api' ? 403 : 400, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnrecognizedClientException' });
  res.end(JSON.stringify({ __type: 'UnrecognizedClientException', message }));
}

/** One DynamoDB call a function made, with the capacity it consumed. */
export interface DynamoDbCall {
  readonly operation: string;
  readonly capacityUnits: number;
  /** The local function that made it (lambda-runtime.ts names). */
  readonly functionName: string;
}

/** Who meters the functions' DynamoDB calls (the benches and the search tests), while anyone does. */
export interface DynamoDbMeterHook {
  active(): boolean;
  record(call: DynamoDbCall): void;
}

/**
 * Forwards a DynamoDB call asking for its consumed capacity (unless it asked already), and
 * records it before answering: what a meter on the SDK client did while functions shared this process.
 */
async function forwardMetered(target: URL, req: IncomingMessage, body: Buffer, res: ServerResponse, meter: DynamoDbMeterHook, functionName: string): Promise<void> {
  const input = JSON.parse(body.toString('utf8') || '{}') as { ReturnConsumedCapacity?: string };
  input.ReturnConsumedCapacity ??= 'TOTAL';
  const answer = await send(target, 'dynamodb', req, Buffer.from(JSON.stringify(input)));
  const output = JSON.parse(answer.body.toString('utf8') || '{}') as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> };
  const capacityUnits = [output.ConsumedCapacity ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
  meter.record({ operation: targetOperation(req), capacityUnits, functionName });
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
  res.end(answer.body);
}

/** The emulator's answer to the request as it came (s3rver's one key in place of the function's). */
function send(target: URL, service: LocalService, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = upstreamRequest(target, service, req, body, async (answer) => {
      resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: await readBody(answer) });
    });
    upstream.on('error', reject);
  });
}

/** Forwards the request as it came, and its answer back. */
function forward(target: URL, service: LocalService, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = upstreamRequest(target, service, req, body, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', reject);
    });
    upstream.on('error', reject);
  });
}

function upstreamRequest(target: URL, service: LocalService, req: IncomingMessage, body: Buffer, onAnswer: (answer: IncomingMessage) => void) {
  const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
  delete headers.expect;
  let path = req.url ?? '/';
  if (service === 's3') {
    if (headers.authorization) headers.authorization = headers.authorization.replace(/Credential=[^/,\s]+\//, `Credential=${S3RVER_ACCESS_KEY_ID}/`);
    path = path.replace(/([?&]X-Amz-Credential=)[^%&/]+/i, `$1${S3RVER_ACCESS_KEY_ID}`);
  }
  const base = target.pathname.replace(/\/$/, '');
  const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: `${base}${path}`, headers }, onAnswer);
  upstream.end(body);
  return upstream;
}

export interface PolicyProxyOptions {
  service: LocalService;
  /** The emulator this proxy stands in front of. */
  target: string;
  /** The local function that signs with an access key id, if any. */
  identify(accessKeyId: string): LocalFunction | undefined;
  /** DynamoDB only: who meters the calls. */
  meter?: DynamoDbMeterHook;
  /** DynamoDB only: the `dynamodb` faults, which the functions' calls meet here (faults.ts). */
  faults?: FaultSwitch;
}

const DYNAMODB_ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';
/** Throttled calls so far, which alternate between DynamoDB's two throttling errors. */
let throttledCalls = 0;

/**
 * Answers a function's DynamoDB call with the fault it meets, as DynamoDB answers: `throttle`
 * alternates its two throttling errors (the SDK retries both, with backoff), `conflict` cancels
 * a TransactWriteItems for a conflict with another transaction. False when the call goes on.
 */
function injectDynamoDbFault(faults: FaultSwitch, fn: LocalFunction, req: IncomingMessage, body: Buffer, res: ServerResponse): boolean {
  const mode = faults.mode('dynamodb');
  const operation = targetOperation(req);
  if (!mode || (mode === 'conflict' && operation !== 'TransactWriteItems') || !faults.strike('dynamodb', fn.name)) return false;
  const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() };
  if (mode === 'conflict') {
    const { TransactItems = [] } = JSON.parse(body.toString('utf8') || '{}') as { TransactItems?: unknown[] };
    const reasons = TransactItems.map((_, index) => (index === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' }));
    sendJson(
      res,
      400,
      {
        __type: `${DYNAMODB_ERROR_PREFIX}TransactionCanceledException`,
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
        CancellationReasons: reasons,
      },
      headers,
    );
    return true;
  }
  throttledCalls += 1;
  const throttling =
    throttledCalls % 2
      ? { __type: `${DYNAMODB_ERROR_PREFIX}ProvisionedThroughputExceededException`, message: 'The level of configured provisioned throughput for the table was exceeded.' }
      : { __type: `${DYNAMODB_ERROR_PREFIX}ThrottlingException`, message: 'Rate of requests exceeds the allowed throughput.' };
  sendJson(res, 400, throttling, headers);
  return true;
}

/**
 * IAM for the local functions: each signs its calls with its own access key (lambda-runtime.ts),
 * and this proxy in front of an emulator lets a call through only if the capabilities of the
 * function behind the key grant every action it needs (CAPABILITY_GRANTS, which the CDK app
 * grants from); otherwise it answers AccessDenied as the service would, naming the function
 * and the capability it lacks. Unsigned requests (a browser's presigned POST upload, CORS
 * preflights) go through as they came: the emulator behind judges them.
 */
export async function servePolicyProxy(options: PolicyProxyOptions): Promise<Listening> {
  const target = new URL(options.target);
  const { service } = options;
  const server = createServer(
    guarded(`iam ${service}`, async (req, res) => {
      const body = await readBody(req);
      const accessKeyId = signingAccessKeyId(req);
      if (accessKeyId !== undefined) {
        const fn = options.identify(accessKeyId);
        if (!fn) return sendUnrecognized(service, res, accessKeyId);
        const allowed = new Set<string>(fn.declaration.capabilities.flatMap((capability) => CAPABILITY_GRANTS[capability].actions));
        const denied = actionsOf(service, req, body).find((action) => !allowed.has(action));
        if (denied) {
          const message = deniedMessage(fn, denied);
          console.error(`[iam] ${message}`);
          return sendDenied(service, res, message);
        }
        if (options.faults && injectDynamoDbFault(options.faults, fn, req, body, res)) return;
        if (options.meter?.active()) return forwardMetered(target, req, body, res, options.meter, fn.name);
      }
      await forward(target, service, req, body, res);
    }),
  );
  return listen(server, 0);
}
