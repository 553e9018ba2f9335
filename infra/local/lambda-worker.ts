import { parentPort, workerData } from 'node:worker_threads';
import type { Context } from 'aws-lambda';

/** What lambda-runtime.ts sends of an invocation's context (functions cannot cross threads). */
export interface InvocationContext {
  functionName: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  invokedFunctionArn: string;
  /** Epoch milliseconds by which the invocation must end. */
  deadline: number;
}

export type ToWorker =
  | { type: 'invoke'; id: string; event: unknown; context: InvocationContext }
  | { type: 'environment'; changes: Record<string, string | undefined> };

export type FromWorker =
  | { id: string; result: unknown }
  | { id: string; error: { name: string; message: string; stack?: string } }
  | { log: 'stdout' | 'stderr'; chunk: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers take many event shapes
type LambdaHandler = (event: any, context: Context) => Promise<any>;

/** One local function's execution environment: loads its handler module once, then runs each invocation it is sent. */
async function serve(port: NonNullable<typeof parentPort>, entry: string): Promise<void> {
  const module = (await import(entry)) as { handler?: LambdaHandler };
  const handler = module.handler;
  if (typeof handler !== 'function') throw new Error(`${entry} does not export a handler`);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'environment') {
      for (const [name, value] of Object.entries(message.changes)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      return;
    }
    const { id, event, context } = message;
    const lambdaContext: Context = {
      callbackWaitsForEmptyEventLoop: false,
      functionName: context.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: context.invokedFunctionArn,
      memoryLimitInMB: context.memoryLimitInMB,
      awsRequestId: context.awsRequestId,
      logGroupName: `/aws/lambda/${context.functionName}`,
      logStreamName: 'local',
      getRemainingTimeInMillis: () => Math.max(0, context.deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    Promise.resolve()
      .then(() => handler(event, lambdaContext))
      .then(
        (result: unknown) => port.postMessage({ id, result } satisfies FromWorker),
        (thrown: unknown) => {
          const error = thrown instanceof Error ? thrown : new Error(String(thrown));
          port.postMessage({ id, error: { name: error.name, message: error.message, stack: error.stack } } satisfies FromWorker);
        },
      );
  });
}

// Stack traces name the sources, through the bundles' source maps.
process.setSourceMapsEnabled(true);
if (parentPort) {
  const port = parentPort;
  // Log lines travel on the port the results take, so an invocation's lines arrive before its result.
  for (const stream of ['stdout', 'stderr'] as const) {
    process[stream].write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      port.postMessage({ log: stream, chunk: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8') } satisfies FromWorker);
      const done = rest.find((arg): arg is () => void => typeof arg === 'function');
      done?.();
      return true;
    }) as typeof process.stdout.write;
  }
  await serve(port, (workerData as { entry: string }).entry);
}
