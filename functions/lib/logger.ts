import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

/**
 * Structured JSON logs, one line per entry (Powertools). Every entry point runs under
 * `withLogContext` (HTTP routes through their middy middleware), so each line carries the
 * invocation's request id (`function_request_id`), the cold start flag, the function name and
 * the `correlation_id` of the request that started the work (see correlationIdOf). LOG_LEVEL
 * (debug, info, warn, error, silent) sets the threshold; info by default.
 */
export const logger = new Logger({
  serviceName: 'oddjobs',
  // Powertools knows the levels in capitals only; ours are written either way.
  logLevel: (process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as LogLevel,
});

/**
 * Where the correlation id travels between functions: a key of every event's detail (the
 * outbox writes it, functions/lib/outbox.ts) and an attribute of every queue message
 * (functions/lib/queues.ts).
 */
export const CORRELATION_ID = { detailKey: 'correlationId', messageAttribute: 'correlationId' } as const;

interface CorrelatedEvent {
  requestContext?: { requestId?: string };
  detail?: Record<string, unknown>;
  Records?: { messageAttributes?: Record<string, { stringValue?: string } | undefined> }[];
}

/**
 * The id that ties a line to the request that started the work: API Gateway's request id for
 * an HTTP or WebSocket request (the access logs' `requestId`), the one an event or a queue
 * message carries from there, else this invocation's own id (a Cognito trigger, the deploy, a
 * stream batch), which then travels with the events the invocation writes.
 */
export function correlationIdOf(event: unknown, context?: Context): string | undefined {
  const correlated = event as CorrelatedEvent | undefined;
  const carried =
    correlated?.requestContext?.requestId ??
    correlated?.detail?.[CORRELATION_ID.detailKey] ??
    correlated?.Records?.[0]?.messageAttributes?.[CORRELATION_ID.messageAttribute]?.stringValue;
  return typeof carried === 'string' ? carried : context?.awsRequestId;
}

/** The current invocation's correlation id, for what it passes on (events, queue messages). */
export function currentCorrelationId(): string | undefined {
  const id = logger.getCorrelationId();
  return typeof id === 'string' ? id : undefined;
}

/**
 * Starts an invocation's lines: its context and correlation id, nothing left from the previous
 * one, at the LOG_LEVEL the function has now (the local stack changes it for tests).
 */
export function startLogContext(event: unknown, context?: Context): void {
  if (process.env.LOG_LEVEL) logger.setLogLevel(process.env.LOG_LEVEL.toUpperCase() as LogLevel);
  logger.resetKeys();
  if (context) logger.addContext(context);
  const correlationId = correlationIdOf(event, context);
  if (correlationId) logger.setCorrelationId(correlationId);
}

/**
 * Wraps a Lambda entry point: its log lines carry the invocation's context. Lambda always
 * passes one; tests that call a handler directly may not.
 */
export function withLogContext<E, R>(handle: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return (event, context) => {
    startLogContext(event, context);
    return handle(withoutCarriedCorrelationId(event));
  };
}

/**
 * The event as its handler should read it: the correlation id an event's detail carries belongs
 * to the log context, not to the domain (a consumer that forwards its detail, e.g. a review to a
 * browser, would otherwise pass it on).
 */
function withoutCarriedCorrelationId<E>(event: E): E {
  const detail = (event as CorrelatedEvent | undefined)?.detail;
  if (!detail || !(CORRELATION_ID.detailKey in detail)) return event;
  const { [CORRELATION_ID.detailKey]: _carried, ...domainDetail } = detail;
  return { ...event, detail: domainDetail };
}
