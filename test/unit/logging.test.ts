import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HTTP_ROUTE_GROUPS } from '../../functions/routes.js';
import { NON_HTTP_DECLARATIONS } from '../support/routes.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

const context = (requestId: string) =>
  ({ functionName: 'oddjobs-test', functionVersion: '$LATEST', awsRequestId: requestId, memoryLimitInMB: '256', invokedFunctionArn: 'arn' }) as unknown as Context;

describe('structured logs', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('writes one JSON line per entry with the request id, the cold start flag and the function name', async () => {
    // As in Lambda: the logger module is loaded in a fresh on-demand execution environment.
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
    vi.stubEnv('LOG_LEVEL', 'info');
    vi.resetModules();
    const { logger, withLogContext } = await import('../../functions/lib/logger.js');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const handler = withLogContext(async (event: { n: number }) => logger.info('handled', { n: event.n }));
    await handler({ n: 1 }, context('request-1'));
    await handler({ n: 2 }, context('request-2'));
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'handled', n: 1, function_request_id: 'request-1', cold_start: true, function_name: 'oddjobs-test' }),
      expect.objectContaining({ level: 'INFO', message: 'handled', n: 2, function_request_id: 'request-2', cold_start: false, function_name: 'oddjobs-test' }),
    ]);
  });

  it('runs every declared entry point under the log context', () => {
    const entries = NON_HTTP_DECLARATIONS.map((declaration) => declaration.entry);
    // storedEventConsumer (functions/lib/stored-event.ts) is withLogContext around reading a stored detail.
    const unwrapped = entries.filter((entry) => !/^export const handler = (withLogContext|storedEventConsumer)\(/m.test(readFileSync(join(REPO_ROOT, entry), 'utf8')));
    expect(unwrapped).toEqual([]);
    // HTTP route groups get it from routeGroup's middy middleware.
    const notRouteGroups = Object.values(HTTP_ROUTE_GROUPS)
      .map((group) => group.entry)
      .filter((entry) => !/^export const handler = routeGroup\(/m.test(readFileSync(join(REPO_ROOT, entry), 'utf8')));
    expect(notRouteGroups).toEqual([]);
  });
});
