import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

/**
 * Structured JSON logs, one line per entry (Powertools). Every entry point runs under
 * `withLogContext` (HTTP routes through its middy middleware), so each line carries the
 * request id, the cold start flag and the function name. LOG_LEVEL (debug, info, warn,
 * error, silent) sets the threshold; info by default.
 */
export const logger = new Logger({
  serviceName: 'oddjobs',
  // Powertools knows the levels in capitals only; ours are written either way.
  logLevel: (process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as LogLevel,
});

/**
 * Wraps a Lambda entry point: its log lines carry the invocation's context. Lambda always
 * passes one; tests that call a handler directly may not.
 */
export function withLogContext<E, R>(handle: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return (event, context) => {
    if (context) logger.addContext(context);
    return handle(event);
  };
}
