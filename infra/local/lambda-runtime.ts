import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { functionBundle } from './function-bundles.js';
import { listen, readBody, sendJson, type Listening } from './http-util.js';
import type { InvocationContext, ToWorker, FromWorker } from './lambda-worker.js';

/** The worker thread's own module (bundled too: a worker starts without a TypeScript loader). */
const WORKER_MODULE = 'infra/local/lambda-worker.ts';
const REGION = 'us-east-1';
const DEFAULT_MEMORY_MIB = 256;
const DEFAULT_TIMEOUT_SECONDS = 10;

/** A local function's identity, as the policy proxy (iam-proxy.ts) finds it from its access key. */
export interface LocalFunction {
  readonly name: string;
  readonly declaration: FunctionDeclaration;
}

/** What the local stack gives every function: where the emulators are, and its declared environment. */
export interface FunctionEnvironments {
  /** Variables every function gets locally besides Lambda's own: the SDK's endpoints (standing in for AWS's) and the like. */
  readonly platform: Readonly<Record<string, string>>;
  /** The variables a declaration gives its function (the same names the CDK app sets). */
  declared(declaration: FunctionDeclaration): Record<string, string>;
}

/** Every local function signs with the same secret; its access key id is what tells them apart. */
export const LOCAL_SECRET_ACCESS_KEY = 'oddjobs-local-function-secret';
/**
 * The access key id of a local function, as Lambda gives each function its role's keys: its
 * name's letters and digits (DynamoDB Local accepts no other characters in a key).
 */
export const accessKeyIdOf = (name: string) => `LOCALFUNCTION${name.replace(/[^A-Za-z0-9]/g, '')}`;

/**
 * One execution environment per function, as in Lambda: a worker thread started on the
 * function's first invocation and reused, with exactly its environment. Module state (SDK
 * clients, caches, the logger's context) is then the function's own.
 */
interface ExecutionEnvironment {
  readonly declaration: FunctionDeclaration;
  readonly worker: Worker;
  readonly pending: Map<string, { resolve(value: unknown): void; reject(error: Error): void }>;
}

/** Before a local stack configures them (a gateway's unit test), functions get Lambda's own variables only. */
const UNCONFIGURED: FunctionEnvironments = { platform: {}, declared: () => ({}) };
let environments = UNCONFIGURED;
/** After the local stack stopped, nothing is invoked any more (a retry would start an environment again). */
let stopped = false;
const running = new Map<string, Promise<ExecutionEnvironment>>();
/** The same environments once started: a crashed one is replaced at once, before another invocation reaches it. */
const started = new Map<string, ExecutionEnvironment>();
const byAccessKey = new Map<string, LocalFunction>();
/** Changes to functions' environments since the stack started (updateFunctionEnvironment), to all and to one. */
let changedForAll: Record<string, string> = {};
const changed = new Map<string, Record<string, string>>();

/** Sets what the functions run with; the local stack calls it once it knows every endpoint. */
export function configureFunctions(given: FunctionEnvironments): void {
  environments = given;
  stopped = false;
}

/** The function that signs with this access key id, if any has run. */
export const functionOfAccessKey = (accessKeyId: string): LocalFunction | undefined => byAccessKey.get(accessKeyId);

/** Exactly what Lambda would give the function, plus the local endpoints: nothing else of this process's environment. */
function environmentOf(name: string, declaration: FunctionDeclaration): Record<string, string> {
  if (stopped) throw new Error(`Local function ${name} invoked after the local stack stopped`);
  const lambda = {
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(declaration.memoryMiB ?? DEFAULT_MEMORY_MIB),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_ACCESS_KEY_ID: accessKeyIdOf(name),
    AWS_SECRET_ACCESS_KEY: LOCAL_SECRET_ACCESS_KEY,
  };
  return { ...environments.platform, ...lambda, ...environments.declared(declaration), ...changedForAll, ...changed.get(name) };
}

async function start(name: string, declaration: FunctionDeclaration): Promise<ExecutionEnvironment> {
  const env = environmentOf(name, declaration);
  const holder = byAccessKey.get(env.AWS_ACCESS_KEY_ID!);
  if (holder && holder.name !== name) throw new Error(`Local functions ${holder.name} and ${name} would sign with the same access key`);
  byAccessKey.set(env.AWS_ACCESS_KEY_ID!, { name, declaration });
  const [workerModule, handlerModule] = await Promise.all([functionBundle(WORKER_MODULE), functionBundle(declaration.entry)]);
  const worker = new Worker(pathToFileURL(workerModule), {
    env,
    execArgv: [],
    workerData: { entry: pathToFileURL(handlerModule).href },
  });
  worker.unref();
  const environment: ExecutionEnvironment = { declaration, worker, pending: new Map() };
  const fail = (error: Error) => {
    if (started.get(name) === environment) {
      started.delete(name);
      running.delete(name);
    }
    for (const { reject } of environment.pending.values()) reject(error);
    environment.pending.clear();
  };
  worker.on('message', (message: FromWorker) => {
    // Its log lines go to this process's output, as Lambda's go to the function's log group.
    if ('log' in message) return void process[message.log].write(message.chunk);
    const call = environment.pending.get(message.id);
    if (!call) return;
    environment.pending.delete(message.id);
    if ('error' in message) call.reject(Object.assign(new Error(message.error.message), { name: message.error.name, stack: message.error.stack }));
    else call.resolve(message.result);
  });
  // As Lambda does after a crash: the next invocation gets a fresh environment.
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`${name}: its execution environment exited (code ${code})`)));
  started.set(name, environment);
  return environment;
}

/** The function's execution environment, started on its first invocation. */
function environmentFor(name: string, declaration: FunctionDeclaration): Promise<ExecutionEnvironment> {
  let starting = running.get(name);
  if (!starting) {
    starting = start(name, declaration);
    running.set(name, starting);
    starting.catch(() => running.get(name) === starting && running.delete(name));
  }
  return starting;
}

/** Invocations per function since the process started, as Lambda's `Invocations` metric counts them (the benches read it). */
const invocations = new Map<string, number>();
/**
 * What Lambda's on-failure destination receives when a function invoked asynchronously (by
 * EventBridge, Scheduler, SNS) kept failing: the event, the function and the error.
 */
export function onFailureRecord(functionName: string, event: unknown, error: unknown, invokeCount: number) {
  const { name: errorType, message: errorMessage } = error instanceof Error ? error : new Error(String(error));
  return {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: randomUUID(),
      functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: invokeCount,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType, errorMessage },
  };
}

export const invocationCounts = (): ReadonlyMap<string, number> => new Map(invocations);

/** Invokes a declared function in its own execution environment, as Lambda would (fresh context per call). */
export async function invoke(name: string, declaration: FunctionDeclaration, event: unknown): Promise<unknown> {
  invocations.set(name, (invocations.get(name) ?? 0) + 1);
  const environment = await environmentFor(name, declaration);
  const id = randomUUID();
  const context: InvocationContext = {
    functionName: name,
    memoryLimitInMB: String(declaration.memoryMiB ?? DEFAULT_MEMORY_MIB),
    awsRequestId: id,
    invokedFunctionArn: `arn:aws:lambda:${REGION}:000000000000:function:${name}`,
    deadline: Date.now() + (declaration.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
  };
  return new Promise((resolveCall, rejectCall) => {
    environment.pending.set(id, { resolve: resolveCall, reject: rejectCall });
    environment.worker.postMessage({ type: 'invoke', id, event, context } satisfies ToWorker);
  });
}

/** `changes` applied to `variables`; `undefined` takes a change back. */
const withChanges = (variables: Record<string, string>, changes: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries({ ...variables, ...changes }).filter((entry): entry is [string, string] => entry[1] !== undefined));

/** Tells the running execution environments of `names` their variables' new values. */
function applyChanges(names: Iterable<string>, changes: Record<string, string | undefined>): void {
  for (const name of names) {
    const environment = started.get(name);
    if (!environment) continue; // One still starting reads the change as it starts.
    const current = environmentOf(name, environment.declaration);
    const values = Object.fromEntries(Object.keys(changes).map((key) => [key, current[key]]));
    environment.worker.postMessage({ type: 'environment', changes: values } satisfies ToWorker);
  }
}

/**
 * Changes a function's environment, as updating its configuration in AWS would; a running
 * execution environment takes the change at once (tests use it where AWS would change a
 * setting or a secret's value without a redeploy). `undefined` takes a change back: the
 * variable is again what the local stack gives the function, or absent.
 */
export function updateFunctionEnvironment(name: string, changes: Record<string, string | undefined>): void {
  changed.set(name, withChanges(changed.get(name) ?? {}, changes));
  applyChanges([name], changes);
}

/** The same change to every function's environment (e.g. LOG_LEVEL, which each invocation reads). */
export function updateEveryFunctionEnvironment(changes: Record<string, string | undefined>): void {
  changedForAll = withChanges(changedForAll, changes);
  applyChanges(started.keys(), changes);
}

/** Ends every execution environment and forgets the changes (the local stack's stop); later invocations fail. */
export async function stopFunctions(): Promise<void> {
  const environmentsStarting = [...running.values()];
  environments = UNCONFIGURED;
  stopped = true;
  running.clear();
  started.clear();
  byAccessKey.clear();
  changed.clear();
  changedForAll = {};
  const settled = await Promise.allSettled(environmentsStarting);
  await Promise.all(settled.map((result) => (result.status === 'fulfilled' ? result.value.worker.terminate() : undefined)));
}

/**
 * The Lambda Invoke API for callers that use the AWS SDK's Lambda client (cognito-local
 * calls its user pool triggers this way). Errors come back as Lambda reports them: status
 * 200 with X-Amz-Function-Error and {errorType, errorMessage}.
 */
export async function serveLambdaInvokeApi(functions: Record<string, FunctionDeclaration>, port: number): Promise<Listening> {
  const server = createServer(async (req, res) => {
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
    const name = match ? decodeURIComponent(match[1]!) : '';
    const declaration = functions[name];
    if (!declaration) return sendJson(res, 404, { Type: 'User', message: `Function not found: ${name}` });
    const event: unknown = JSON.parse((await readBody(req)).toString('utf8') || '{}');
    try {
      const result = await invoke(name, declaration, event);
      sendJson(res, 200, result ?? null);
    } catch (error) {
      const { name: errorType, message: errorMessage } = error instanceof Error ? error : new Error(String(error));
      sendJson(res, 200, { errorType, errorMessage }, { 'x-amz-function-error': 'Unhandled' });
    }
  });
  return listen(server, port);
}
