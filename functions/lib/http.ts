import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from '../../shared/zod.js';
import { MSG } from '../../shared/messages.js';
import { ADMIN_GROUP } from '../../shared/roles.js';
import { containsLoneSurrogate } from '../../shared/text.js';
import { HTTP_ROUTE_GROUPS, OPERATIONS_CHECKING_SUSPENSION, type HttpRouteGroupName, type RouteKeyOf } from '../routes.js';
import { HttpError, badRequest, forbidden, tooManyRequests, unauthorized } from './errors.js';
import { spendClientBudget } from './client-budget.js';
import { logger, startLogContext } from './logger.js';
import { checkPathIds, pathIdShapes } from './path-ids.js';
import { httpErrorFromStripe, isStripeError } from './stripe-errors.js';
import { transientHttpError } from './transient-errors.js';
import { isSuspended } from './suspension.js';
// The one record the route framework writes: a refused role check is a security event (spec 1 §6).
import { recordRoleRefusal } from './admin-actions.js';

/** The signed-in user behind a request, from the claims the JWT authorizer verified. */
export interface Caller {
  userId: string;
  email: string;
  groups: string[];
  isAdmin: boolean;
}

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResponse = APIGatewayProxyStructuredResultV2;

export interface HttpRequest {
  event: HttpEvent;
  /** Null on public routes called without a token. */
  caller: Caller | null;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The body as sent, decoded to text (a signed webhook verifies these very characters). */
  rawBody: string;
  /** Parses the JSON body with a schema; a 400 with the schema's message when it does not fit. */
  body<S extends z.ZodMiniType>(schema: S): z.output<S>;
}

export interface SignedInRequest extends HttpRequest {
  caller: Caller;
}

/** What an operation returns: a body (200), or a status with a body. */
export type OperationResult = { status: number; body?: unknown } | object;
type Operation<Req extends HttpRequest> = (request: Req) => Promise<OperationResult>;

/** HTTP API JWT authorizers flatten claims to strings; groups arrive as "[a b]" or an array. */
export function parseGroups(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.map(String);
  if (typeof claim !== 'string' || claim === '') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

export function callerFromEvent(event: HttpEvent): Caller | null {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') return null;
  const groups = parseGroups(claims['cognito:groups']);
  return { userId: claims.sub, email: String(claims.email ?? ''), groups, isAdmin: groups.includes(ADMIN_GROUP) };
}

/**
 * How deep a request body may nest arrays and objects. Our deepest schema nests 3 levels; a
 * body past this is refused before it is parsed, so no later walk over it (the surrogate
 * check, zod, JSON.stringify in a log line) can run out of stack.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another: one pass
 * over the characters, skipping strings, with a counter rather than recursion. Text that is
 * not JSON is left to JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** The request body as text (API Gateway hands it over base64-encoded for some content types). */
function bodyText(event: HttpEvent): string {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
}

/**
 * The JSON body, refused with a 400 when it does not parse or holds a lone surrogate
 * (`"\ud800"` parses, but breaks every later encoding of it: URIError, UTF-8).
 */
function parseJson(text: string): unknown {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(MSG.backend.invalidJson);
  }
  if (containsLoneSurrogate(value)) throw badRequest(MSG.backend.invalidText);
  return value;
}

/** Path and query values, checked like the body: no lone surrogates reach an operation. */
function textParameters(values: Record<string, string | undefined> | undefined): Record<string, string> {
  const checked = (values ?? {}) as Record<string, string>;
  if (containsLoneSurrogate(checked)) throw badRequest(MSG.backend.invalidText);
  return checked;
}

/** Turns zod issues into the first message (the one a form shows) and a field map. */
export function validationError(error: z.core.$ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '_';
    fields[path] ??= issue.message;
  }
  return badRequest(error.issues[0]?.message ?? MSG.backend.requiredMissing, fields);
}

export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

function toResponse(result: OperationResult, headers: Record<string, string> = {}): HttpResponse {
  const { status, body } =
    'status' in result && typeof result.status === 'number' ? (result as { status: number; body?: unknown }) : { status: 200, body: result };
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** Answers HttpErrors with their message, Stripe's errors as mapped, a dependency's transient failure 503; anything else is logged and answered 500. */
const httpErrors = (): MiddlewareObj<HttpEvent, HttpResponse> => ({
  onError: (request) => {
    let error = request.error;
    if (isStripeError(error)) {
      const mapped = httpErrorFromStripe(error);
      // Stripe refusing the caller's input is routine; Stripe or our keys failing is not.
      logger[mapped.status >= 500 ? 'warn' : 'info']('stripe error', { routeKey: request.event.routeKey, error });
      error = mapped;
    }
    const transient = transientHttpError(error);
    if (transient) {
      // A dependency said "not now" (throttled, conflicting, failing): the caller may retry.
      logger.warn('dependency unavailable', { routeKey: request.event.routeKey, error });
      error = transient;
    }
    if (error instanceof HttpError) {
      request.response = toResponse({ status: error.status, body: { error: error.message, fields: error.fields } }, error.headers);
      return;
    }
    logger.error('unhandled error', { routeKey: request.event.routeKey, error });
    request.response = toResponse({ status: 500, body: { error: MSG.backend.unexpected } });
  },
});

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Operations<G extends HttpRouteGroupName> = {
  [K in RouteKeyOf<G>]: Operation<(typeof HTTP_ROUTE_GROUPS)[G]['routes'][K] extends 'public' ? HttpRequest : SignedInRequest>;
};

/**
 * Builds the Lambda handler of one route group: dispatches by the event's routeKey to the
 * operation declared for it, enforces the declared access (the JWT authorizer already
 * rejected bad tokens; admin routes also need the admin group claim; a suspended user's
 * still-valid token is refused), spends a signed-in caller's budget on writes, and maps errors.
 */
export function routeGroup<G extends HttpRouteGroupName>(group: G, operations: Operations<G>) {
  const declared: Readonly<Record<string, string>> = HTTP_ROUTE_GROUPS[group].routes;
  const idShapes = Object.fromEntries(Object.keys(declared).map((routeKey) => [routeKey, pathIdShapes(routeKey)]));
  return middy<HttpEvent, HttpResponse>()
    .use({ before: ({ event, context }) => startLogContext(event, context) })
    .use(httpErrors())
    .handler(async (event) => {
      const access = declared[event.routeKey];
      const operation = (operations as Record<string, Operation<HttpRequest>>)[event.routeKey];
      if (!access || !operation) throw new HttpError(404, MSG.backend.notFound);
      const caller = callerFromEvent(event);
      if (access !== 'public' && !caller) throw unauthorized();
      if (access === 'admin' && !caller?.isAdmin) {
        await recordRoleRefusal(caller!.userId, event.routeKey);
        throw forbidden(MSG.auth.insufficientPermissions);
      }
      // Only writes are counted: they are what costs (transactions, events, pushes, mail); reads
      // are bounded per route by the stage throttle (docs/scale.md). Anonymous callers of public
      // routes are not: Stripe's webhooks come from a few shared addresses. The two checks are
      // independent, so they run together (a suspended user's spent budget harms nobody).
      const [suspended, budget] = await Promise.all([
        access !== 'public' && caller && !OPERATIONS_CHECKING_SUSPENSION.has(event.routeKey) ? isSuspended(caller.userId) : false,
        caller && WRITE_METHODS.has(event.requestContext.http.method) ? spendClientBudget('clientWrites', caller.userId) : undefined,
      ]);
      if (suspended) throw forbidden(MSG.auth.accountSuspended);
      if (budget && !budget.allowed) throw tooManyRequests(MSG.backend.tooManyRequests, budget.retryAfterSeconds);
      const rawBody = bodyText(event);
      // Before any work, and on every route (whether or not it reads a body).
      if (nestsDeeperThan(rawBody, MAX_BODY_DEPTH)) throw badRequest(MSG.backend.nestedTooDeeply(MAX_BODY_DEPTH));
      const params = textParameters(event.pathParameters);
      checkPathIds(idShapes[event.routeKey] ?? {}, params);
      let parsedBody: unknown;
      const request: HttpRequest = {
        event,
        caller,
        params,
        query: textParameters(event.queryStringParameters),
        rawBody,
        body: (schema) => {
          parsedBody ??= parseJson(rawBody);
          return parseWith(schema, parsedBody);
        },
      };
      return toResponse(await operation(request));
    });
}
