import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyResultV2 } from 'aws-lambda';
import { apiThrottles, type ApiThrottle } from '../../functions/api-throttles.js';
import { HTTP_ROUTE_GROUPS, type Access, type HttpRouteGroup } from '../../functions/routes.js';
import { createIdTokenVerifier, type IdTokenVerifier } from '../../functions/lib/tokens.js';
import { decodePathSegment, guarded, listen, readBodyWithin, sendJson, type Listening } from './http-util.js';
import { invoke } from './lambda-runtime.js';
import { stageThrottle, TOO_MANY_REQUESTS } from './stage-throttle.js';

interface CompiledRoute {
  routeKey: string;
  method: string;
  pattern: RegExp;
  paramNames: string[];
  access: Access;
  group: string;
  declaration: HttpRouteGroup;
  /** Literal segments: more specific routes win, as on API Gateway. */
  specificity: number;
}

export function compileRoutes(groups: Record<string, HttpRouteGroup> = HTTP_ROUTE_GROUPS): CompiledRoute[] {
  const routes: CompiledRoute[] = [];
  for (const [group, declaration] of Object.entries(groups)) {
    for (const [routeKey, access] of Object.entries(declaration.routes)) {
      const [method, path] = routeKey.split(' ') as [string, string];
      const paramNames: string[] = [];
      const source = path
        .split('/')
        .map((segment) => {
          const param = /^\{(.+?)(\+)?\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(param[1]!);
          return param[2] ? '(.+)' : '([^/]+)';
        })
        .join('/');
      routes.push({
        routeKey,
        method,
        pattern: new RegExp(`^${source}$`),
        paramNames,
        access,
        group,
        declaration,
        specificity: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      });
    }
  }
  return routes.sort((a, b) => b.specificity - a.specificity);
}

/** API Gateway's JWT authorizer hands claims to the function as strings ("[a b]" for lists). */
export function flattenClaims(payload: Record<string, unknown>): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload)) {
    claims[key] = Array.isArray(value) ? `[${value.join(' ')}]` : String(value);
  }
  return claims;
}

function singleValued(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of entries) out[key] = key in out ? `${out[key]},${value}` : value;
  return out;
}

function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/;

/** API Gateway's documented HTTP API quotas the product could reach; tests shorten or lower them. */
export interface HttpApiLimits {
  /** A longer request body is refused with 413 (API Gateway: 10 MB). */
  maxPayloadBytes: number;
  /** The function's answer is awaited this long, then the client gets 503 (API Gateway: 30 s). */
  integrationTimeoutMs: number;
  /** The stage's throttle (the one the CDK app declares): each route has its own bucket. */
  throttle: ApiThrottle;
}

export const API_GATEWAY_HTTP_LIMITS: HttpApiLimits = { maxPayloadBytes: 10 * 1024 * 1024, integrationTimeoutMs: 30_000, throttle: apiThrottles().http };

const TIMED_OUT = Symbol('integration timed out');

/** The handler's answer, or TIMED_OUT when it takes longer than `timeoutMs` (the handler runs on, as a Lambda does). */
async function withinTimeout<T>(answer: Promise<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
  });
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A local API Gateway HTTP API (payload format 2.0): matches the routes declared in
 * functions/routes.ts, verifies ID tokens like the JWT authorizer, and invokes the same
 * handler modules the CDK stack deploys.
 */
export async function serveHttpGateway(options: {
  port: number;
  verifier?: IdTokenVerifier;
  limits?: Partial<HttpApiLimits>;
  /** The declarations to serve (tests of the gateway itself give their own). */
  routeGroups?: Record<string, HttpRouteGroup>;
}): Promise<Listening> {
  const routes = compileRoutes(options.routeGroups);
  const verifier = options.verifier ?? createIdTokenVerifier();
  const limits = { ...API_GATEWAY_HTTP_LIMITS, ...options.limits };
  const throttle = stageThrottle(limits.throttle);

  const server = createServer(guarded('http', async (req, res) => {
    // No CORS, as the HTTP API has none: pages call it on their own origin (infra/constructs/site-request.ts),
    // so a preflight is a request for a route nobody declared.
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    let params: Array<string | undefined> = [];
    const route = routes.find((candidate) => {
      if (candidate.method !== method && candidate.method !== 'ANY') return false;
      const match = candidate.pattern.exec(url.pathname);
      if (match) params = match.slice(1).map(decodePathSegment);
      return match !== null;
    });
    if (!route) return sendJson(res, 404, { message: 'Not Found' });
    // API Gateway throttles a route's requests before anything else, the authorizer included.
    if (!throttle.admit(route.routeKey)) return sendJson(res, 429, { message: TOO_MANY_REQUESTS });
    // As API Gateway: a path it cannot decode is the caller's error.
    if (params.includes(undefined)) return sendJson(res, 400, { message: 'Bad Request' });

    const headers = requestHeaders(req);
    let claims: Record<string, string> | undefined;
    if (route.access !== 'public') {
      const token = (headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      try {
        claims = flattenClaims((await verifier.verify(token)) as Record<string, unknown>);
      } catch {
        return sendJson(res, 401, { message: 'Unauthorized' });
      }
    }

    const rawBody = await readBodyWithin(req, limits.maxPayloadBytes);
    if (!rawBody) return sendJson(res, 413, { message: 'Request Entity Too Large' });
    const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
    const now = new Date();
    const event: APIGatewayProxyEventV2WithJWTAuthorizer = {
      version: '2.0',
      routeKey: route.routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      queryStringParameters: url.search ? singleValued(url.searchParams.entries()) : undefined,
      pathParameters: route.paramNames.length ? Object.fromEntries(route.paramNames.map((name, i) => [name, params[i]!])) : undefined,
      body: rawBody.length ? rawBody.toString(isText ? 'utf8' : 'base64') : undefined,
      isBase64Encoded: rawBody.length > 0 && !isText,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: claims ? { principalId: '', integrationLatency: 0, jwt: { claims, scopes: [] } } : (undefined as never),
        domainName: url.host,
        domainPrefix: 'local',
        http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey: route.routeKey,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
      },
    };

    try {
      const result = (await withinTimeout(invoke(`http-${route.group}`, route.declaration, event), limits.integrationTimeoutMs)) as
        | APIGatewayProxyResultV2
        | typeof TIMED_OUT;
      if (result === TIMED_OUT) {
        console.error(`[http] ${route.routeKey} did not answer within ${limits.integrationTimeoutMs} ms`);
        return sendJson(res, 503, { message: 'Service Unavailable' });
      }
      if (typeof result === 'object' && result !== null && 'statusCode' in result) {
        const body = result.body ?? '';
        res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string> | undefined);
        res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
      } else {
        sendJson(res, 200, result);
      }
    } catch (error) {
      console.error(`[http] ${route.routeKey} failed`, error);
      sendJson(res, 500, { message: 'Internal Server Error' });
    }
  }));
  return listen(server, options.port);
}
