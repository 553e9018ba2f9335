import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { listen, readBody, sendJson, type Listening } from './http-util.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers take many event shapes
export type LambdaHandler = (event: any, context: Context) => Promise<any>;

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const loaded = new Map<string, Promise<LambdaHandler>>();

/** Imports the handler module a declaration names, the same module CDK bundles. */
export function loadHandler(declaration: FunctionDeclaration): Promise<LambdaHandler> {
  let handler = loaded.get(declaration.entry);
  if (!handler) {
    handler = import(pathToFileURL(resolve(REPO_ROOT, declaration.entry)).href).then((module: { handler?: LambdaHandler }) => {
      if (typeof module.handler !== 'function') throw new Error(`${declaration.entry} does not export a handler`);
      return module.handler;
    });
    loaded.set(declaration.entry, handler);
  }
  return handler;
}

function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Invokes a declared function in this process, as Lambda would (fresh context per call). */
export async function invoke(name: string, declaration: FunctionDeclaration, event: unknown): Promise<unknown> {
  const handler = await loadHandler(declaration);
  return handler(event, lambdaContext(name, declaration.timeoutSeconds ?? 10));
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
