import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { WebSocket, WebSocketServer } from 'ws';
import { apiThrottles, type ApiThrottle } from '../../functions/api-throttles.js';
import { WEBSOCKET_API } from '../../functions/routes.js';
import { decodePathSegment, guarded, listen, readBodyWithin, sendJson, type Listening } from './http-util.js';
import type { FaultSwitch } from './faults.js';
import { invoke } from './lambda-runtime.js';
import { stageThrottle, TOO_MANY_REQUESTS } from './stage-throttle.js';

export interface LocalWebSocketGateway extends Listening {
  /** ws:// URL browsers connect to. */
  webSocketUrl: string;
  /** The @connections management endpoint (what SOCKETS_ENDPOINT points at). */
  managementEndpoint: string;
  connectionCount(): number;
}

/** What API Gateway allows a WebSocket connection (its documented quotas); tests shorten or lower them. */
export interface ConnectionLimits {
  /** Closed after this long without a message either way (API Gateway: 10 minutes). */
  idleTimeoutMs: number;
  /** Closed this long after connecting, busy or not (API Gateway: 2 hours). */
  maxConnectionAgeMs: number;
  /** A client's frame longer than this closes the connection with 1009 (API Gateway: 32 KB). */
  maxFrameBytes: number;
  /** A client's message (all its frames) longer than this closes it with 1009; @connections refuses longer data with 413 (API Gateway: 128 KB). */
  maxMessageBytes: number;
  /** The stage's throttle (the one the CDK app declares): $connect and $default (each message) have their own buckets. */
  throttle: ApiThrottle;
}

export const API_GATEWAY_CONNECTION_LIMITS: ConnectionLimits = {
  idleTimeoutMs: 10 * 60_000,
  maxConnectionAgeMs: 2 * 3600_000,
  maxFrameBytes: 32 * 1024,
  maxMessageBytes: 128 * 1024,
  throttle: apiThrottles().webSocket,
};

/** API Gateway closes a connection it times out with 1001 "Going Away". */
const GOING_AWAY = 1001;
/** ...and one that sent a frame or message over its quota with 1009 "Message Too Big". */
const MESSAGE_TOO_BIG = 1009;

/** The length fields of a WebSocket frame's header (RFC 6455 §5.2), or undefined while the header is incomplete. */
function frameHeader(bytes: Buffer): { headerLength: number; payloadLength: number } | undefined {
  if (bytes.length < 2) return undefined;
  const maskLength = bytes[1]! & 0x80 ? 4 : 0;
  const length7 = bytes[1]! & 0x7f;
  const extendedLength = length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
  if (bytes.length < 2 + extendedLength) return undefined;
  const payloadLength = extendedLength === 2 ? bytes.readUInt16BE(2) : extendedLength === 8 ? Number(bytes.readBigUInt64BE(2)) : length7;
  return { headerLength: 2 + extendedLength + maskLength, payloadLength };
}

/**
 * Follows the frames in what a client sends and calls `onOversized` at the first one longer
 * than `maxFrameBytes`, as soon as its header arrives (ws itself limits only whole messages).
 */
function watchFrameSizes(maxFrameBytes: number, onOversized: () => void): (chunk: Buffer) => void {
  let unread: Buffer = Buffer.alloc(0);
  let payloadToSkip = 0;
  let done = false;
  return (chunk) => {
    if (done) return;
    unread = unread.length ? Buffer.concat([unread, chunk]) : chunk;
    for (;;) {
      const skipped = Math.min(payloadToSkip, unread.length);
      payloadToSkip -= skipped;
      unread = unread.subarray(skipped);
      if (payloadToSkip > 0) return;
      const header = frameHeader(unread);
      if (!header) return;
      if (header.payloadLength > maxFrameBytes) {
        done = true;
        return onOversized();
      }
      // The mask key may not have arrived yet; it is skipped with the payload.
      payloadToSkip = header.headerLength + header.payloadLength;
    }
  };
}

function requestContext(connectionId: string, routeKey: string, eventType: string, sourceIp: string, extra: object = {}) {
  const now = new Date();
  return {
    routeKey,
    eventType,
    connectionId,
    messageId: randomUUID(),
    extendedRequestId: randomUUID(),
    requestId: randomUUID(),
    domainName: '127.0.0.1',
    stage: 'local',
    apiId: 'local',
    connectedAt: now.getTime(),
    requestTime: now.toISOString(),
    requestTimeEpoch: now.getTime(),
    identity: { sourceIp },
    ...extra,
  };
}

/**
 * A local API Gateway WebSocket API: runs the $connect authorizer and the $connect,
 * $disconnect and $default routes declared in functions/routes.ts, and serves the
 * @connections management API so `@aws-sdk/client-apigatewaymanagementapi` works unchanged.
 */
export async function serveWebSocketGateway(options: {
  port: number;
  limits?: Partial<ConnectionLimits>;
  /** The `sockets` faults, which pushes over @connections meet: drop, gone (faults.ts). */
  faults?: FaultSwitch;
}): Promise<LocalWebSocketGateway> {
  const limits = { ...API_GATEWAY_CONNECTION_LIMITS, ...options.limits };
  const throttle = stageThrottle(limits.throttle);
  const sockets = new Map<string, WebSocket>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  /** Route invocations under way: closing waits for them, so none outlives the functions that run it. */
  const inFlight = new Set<Promise<unknown>>();
  /** Invokes the connections function for a route without waiting; a failure is logged, as API Gateway logs it. */
  const runRoute = (event: ReturnType<typeof routeEvent>, routeKey: string) => {
    const invocation = invoke('ws-connections', WEBSOCKET_API.connections, event).catch((error: unknown) => console.error(`[ws] ${routeKey} failed`, error));
    inFlight.add(invocation);
    void invocation.finally(() => inFlight.delete(invocation));
  };
  /** Set while the gateway closes: the sockets it terminates then are not clients leaving. */
  let closing = false;
  /** Restarts a connection's idle clock (on every message in or out). */
  const touch = (connectionId: string) => {
    clearTimeout(idleTimers.get(connectionId));
    idleTimers.set(
      connectionId,
      setTimeout(() => sockets.get(connectionId)?.close(GOING_AWAY, 'Idle timeout'), limits.idleTimeoutMs),
    );
  };
  // ws closes a connection whose message exceeds maxPayload with 1009, as API Gateway does.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const routeEvent = (connectionId: string, routeKey: string, eventType: string, sourceIp: string, authorizer: object, body?: string) => ({
    requestContext: requestContext(connectionId, routeKey, eventType, sourceIp, { authorizer }),
    isBase64Encoded: false,
    ...(body !== undefined ? { body } : {}),
  });

  const server = createServer(guarded('ws', async (req, res) => {
    // Management API: POST (send), GET (info), DELETE (disconnect) /@connections/{id}
    const match = /^\/(?:@|%40)connections\/([^/?]+)/.exec(req.url ?? '');
    if (!match) return sendJson(res, 404, { message: 'Not Found' });
    const id = decodePathSegment(match[1]!);
    if (id === undefined) return sendJson(res, 400, { message: 'Bad Request' });
    const data = await readBodyWithin(req, limits.maxMessageBytes);
    if (!data) return sendJson(res, 413, { message: 'Payload Too Large' }, { 'x-amzn-errortype': 'PayloadTooLargeException' });
    const socket = sockets.get(id);
    const gone = () => sendJson(res, 410, { message: 'Gone' }, { 'x-amzn-errortype': 'GoneException' });
    if (!socket) return gone();
    const fault = req.method === 'POST' ? options.faults?.strike('sockets', id) : undefined;
    // `sockets drop`: the connection breaks under the push (no close frame), which is lost with it.
    if (fault === 'drop') socket.terminate();
    // `sockets gone`: API Gateway answers 410 for a connection that the client still holds open.
    if (fault) return gone();
    if (req.method === 'POST') {
      // API Gateway delivers pushed data as text frames.
      socket.send(data.toString('utf8'));
      touch(decodeURIComponent(match[1]!));
      res.writeHead(200);
      res.end();
    } else if (req.method === 'DELETE') {
      socket.close(1000);
      res.writeHead(204);
      res.end();
    } else {
      sendJson(res, 200, { ConnectedAt: new Date().toISOString(), Identity: { SourceIp: '127.0.0.1' } });
    }
  }));

  // Nothing a client sends may take the gateway down: a failed upgrade only ends its socket.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((error: unknown) => {
      console.error('[ws] $connect failed', error);
      socket.destroy();
    });
  });

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const connectionId = randomBytes(12).toString('base64');
    // As API Gateway, every event of a connection carries the address it was opened from.
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const queryStringParameters = Object.fromEntries(url.searchParams.entries());
    const reject = (status: 401 | 403 | 429) => {
      socket.end(`HTTP/1.1 ${status} ${{ 401: 'Unauthorized', 403: 'Forbidden', 429: TOO_MANY_REQUESTS }[status]}\r\n\r\n`);
    };
    if (!throttle.admit('$connect')) return reject(429);
    let authorizer: Record<string, unknown>;
    try {
      const decision = (await invoke('ws-authorizer', WEBSOCKET_API.authorizer, {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:us-east-1:000000000000:local/local/$connect`,
        headers: req.headers,
        queryStringParameters,
        requestContext: requestContext(connectionId, '$connect', 'CONNECT', sourceIp),
      })) as APIGatewayAuthorizerResult;
      if (decision.policyDocument.Statement.some((statement) => statement.Effect !== 'Allow')) return reject(403);
      authorizer = { principalId: decision.principalId, ...decision.context };
    } catch {
      return reject(401);
    }
    const connected = (await invoke('ws-connections', WEBSOCKET_API.connections, {
      ...routeEvent(connectionId, '$connect', 'CONNECT', sourceIp, authorizer),
      headers: req.headers,
      queryStringParameters,
    }).catch(() => ({ statusCode: 500 }))) as { statusCode?: number };
    if ((connected.statusCode ?? 200) >= 300) return reject(403);

    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(connectionId, ws);
      touch(connectionId);
      // Before ws reads them: a message whose frame is too long must not reach the function.
      socket.prependListener('data', watchFrameSizes(limits.maxFrameBytes, () => ws.close(MESSAGE_TOO_BIG, 'Message too big')));
      const ageLimit = setTimeout(() => ws.close(GOING_AWAY, 'Connection age limit'), limits.maxConnectionAgeMs);
      ws.on('message', (data) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        touch(connectionId);
        if (!throttle.admit('$default')) {
          // API Gateway drops a throttled message and tells the client so on the connection.
          ws.send(JSON.stringify({ message: TOO_MANY_REQUESTS, connectionId, requestId: randomUUID() }));
          return;
        }
        runRoute(routeEvent(connectionId, '$default', 'MESSAGE', sourceIp, authorizer, data.toString()), '$default');
      });
      ws.on('close', () => {
        sockets.delete(connectionId);
        clearTimeout(idleTimers.get(connectionId));
        idleTimers.delete(connectionId);
        clearTimeout(ageLimit);
        if (closing) return;
        runRoute(routeEvent(connectionId, '$disconnect', 'DISCONNECT', sourceIp, authorizer), '$disconnect');
      });
      // An invalid frame closes this connection (ws does that); it must not reach the process.
      ws.on('error', (error) => console.error('[ws] connection error', error.message));
    });
  };

  const listening = await listen(server, options.port);
  return {
    ...listening,
    webSocketUrl: listening.url.replace(/^http/, 'ws'),
    managementEndpoint: listening.url,
    connectionCount: () => sockets.size,
    close: async () => {
      closing = true;
      await Promise.allSettled(inFlight);
      for (const timer of idleTimers.values()) clearTimeout(timer);
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
      await listening.close();
    },
  };
}
