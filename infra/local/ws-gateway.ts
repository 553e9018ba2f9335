import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { WebSocketServer, type WebSocket } from 'ws';
import { WEBSOCKET_API } from '../../functions/routes.js';
import { decodePathSegment, guarded, listen, readBody, sendJson, type Listening } from './http-util.js';
import { invoke } from './lambda-runtime.js';

export interface LocalWebSocketGateway extends Listening {
  /** ws:// URL browsers connect to. */
  webSocketUrl: string;
  /** The @connections management endpoint (what SOCKETS_ENDPOINT points at). */
  managementEndpoint: string;
  connectionCount(): number;
}

/** What API Gateway does to a connection over time (its documented quotas); tests shorten them. */
export interface ConnectionLimits {
  /** Closed after this long without a message either way (API Gateway: 10 minutes). */
  idleTimeoutMs: number;
  /** Closed this long after connecting, busy or not (API Gateway: 2 hours). */
  maxConnectionAgeMs: number;
}

export const API_GATEWAY_CONNECTION_LIMITS: ConnectionLimits = { idleTimeoutMs: 10 * 60_000, maxConnectionAgeMs: 2 * 3600_000 };

/** API Gateway closes a connection it times out with 1001 "Going Away". */
const GOING_AWAY = 1001;

function requestContext(connectionId: string, routeKey: string, eventType: string, extra: object = {}) {
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
    identity: { sourceIp: '127.0.0.1' },
    ...extra,
  };
}

/**
 * A local API Gateway WebSocket API: runs the $connect authorizer and the $connect,
 * $disconnect and $default routes declared in functions/routes.ts, and serves the
 * @connections management API so `@aws-sdk/client-apigatewaymanagementapi` works unchanged.
 */
export async function serveWebSocketGateway(options: { port: number; limits?: Partial<ConnectionLimits> }): Promise<LocalWebSocketGateway> {
  const limits = { ...API_GATEWAY_CONNECTION_LIMITS, ...options.limits };
  const sockets = new Map<string, WebSocket>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  /** Restarts a connection's idle clock (on every message in or out). */
  const touch = (connectionId: string) => {
    clearTimeout(idleTimers.get(connectionId));
    idleTimers.set(
      connectionId,
      setTimeout(() => sockets.get(connectionId)?.close(GOING_AWAY, 'Idle timeout'), limits.idleTimeoutMs),
    );
  };
  const wss = new WebSocketServer({ noServer: true });
  const routeEvent = (connectionId: string, routeKey: string, eventType: string, authorizer: object, body?: string) => ({
    requestContext: requestContext(connectionId, routeKey, eventType, { authorizer }),
    isBase64Encoded: false,
    ...(body !== undefined ? { body } : {}),
  });

  const server = createServer(guarded('ws', async (req, res) => {
    // Management API: POST (send), GET (info), DELETE (disconnect) /@connections/{id}
    const match = /^\/(?:@|%40)connections\/([^/?]+)/.exec(req.url ?? '');
    if (!match) return sendJson(res, 404, { message: 'Not Found' });
    const id = decodePathSegment(match[1]!);
    if (id === undefined) return sendJson(res, 400, { message: 'Bad Request' });
    const socket = sockets.get(id);
    if (!socket) return sendJson(res, 410, { message: 'Gone' }, { 'x-amzn-errortype': 'GoneException' });
    if (req.method === 'POST') {
      // API Gateway delivers pushed data as text frames.
      socket.send((await readBody(req)).toString('utf8'));
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
    const queryStringParameters = Object.fromEntries(url.searchParams.entries());
    const reject = (status: number) => {
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\n\r\n`);
    };
    let authorizer: Record<string, unknown>;
    try {
      const decision = (await invoke('ws-authorizer', WEBSOCKET_API.authorizer, {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:us-east-1:000000000000:local/local/$connect`,
        headers: req.headers,
        queryStringParameters,
        requestContext: requestContext(connectionId, '$connect', 'CONNECT'),
      })) as APIGatewayAuthorizerResult;
      if (decision.policyDocument.Statement.some((statement) => statement.Effect !== 'Allow')) return reject(403);
      authorizer = { principalId: decision.principalId, ...decision.context };
    } catch {
      return reject(401);
    }
    const connected = (await invoke('ws-connections', WEBSOCKET_API.connections, {
      ...routeEvent(connectionId, '$connect', 'CONNECT', authorizer),
      headers: req.headers,
      queryStringParameters,
    }).catch(() => ({ statusCode: 500 }))) as { statusCode?: number };
    if ((connected.statusCode ?? 200) >= 300) return reject(403);

    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(connectionId, ws);
      touch(connectionId);
      const ageLimit = setTimeout(() => ws.close(GOING_AWAY, 'Connection age limit'), limits.maxConnectionAgeMs);
      ws.on('message', (data) => {
        touch(connectionId);
        void invoke('ws-connections', WEBSOCKET_API.connections, routeEvent(connectionId, '$default', 'MESSAGE', authorizer, data.toString())).catch(
          (error: unknown) => console.error('[ws] $default failed', error),
        );
      });
      ws.on('close', () => {
        sockets.delete(connectionId);
        clearTimeout(idleTimers.get(connectionId));
        idleTimers.delete(connectionId);
        clearTimeout(ageLimit);
        void invoke('ws-connections', WEBSOCKET_API.connections, routeEvent(connectionId, '$disconnect', 'DISCONNECT', authorizer)).catch(
          (error: unknown) => console.error('[ws] $disconnect failed', error),
        );
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
      for (const timer of idleTimers.values()) clearTimeout(timer);
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
      await listening.close();
    },
  };
}
