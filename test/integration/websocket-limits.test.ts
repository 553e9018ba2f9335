import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocketGateway, type ConnectionLimits, type LocalWebSocketGateway } from '../../infra/local/ws-gateway.js';
import { useLocalStack } from '../support/local-stack.js';

interface Connection {
  socket: WebSocket;
  received: string[];
  closed: Promise<{ code: number }>;
}

/** The quotas API Gateway documents for WebSocket APIs, on local gateways with some of them lowered or shortened. */
describe('local WebSocket gateway limits (API Gateway WebSocket quotas)', () => {
  // The stack gives the gateway's functions (authorizer, connections) their table and issuer.
  useLocalStack();
  const gateways: LocalWebSocketGateway[] = [];
  afterEach(async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
  });
  const serve = async (limits: Partial<ConnectionLimits> = {}) => {
    const gateway = await serveWebSocketGateway({ port: 0, limits });
    gateways.push(gateway);
    return gateway;
  };

  const connect = (gateway: LocalWebSocketGateway) =>
    new Promise<Connection>((resolve, reject) => {
      const socket = new WebSocket(`${gateway.webSocketUrl}?token=anonymous`);
      const received: string[] = [];
      const closed = new Promise<{ code: number }>((done) => socket.once('close', (code) => done({ code })));
      socket.on('message', (data) => received.push(data.toString()));
      socket.once('open', () => resolve({ socket, received, closed }));
      socket.once('unexpected-response', (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
      socket.once('error', reject);
    });

  /** Open after everything sent so far was read by the gateway (a pong follows it), or the close code. */
  const stateAfterSending = ({ socket, closed }: Connection) =>
    new Promise<'open' | number>((resolve) => {
      socket.once('pong', () => resolve('open'));
      void closed.then(({ code }) => resolve(code));
      socket.ping();
    });

  it('closes a connection with 1009 on a frame over 32 KB, and passes one of 32 KB', async () => {
    const gateway = await serve();
    const fine = await connect(gateway);
    fine.socket.send('x'.repeat(32 * 1024));
    expect(await stateAfterSending(fine)).toBe('open');
    fine.socket.close();

    const big = await connect(gateway);
    big.socket.send('x'.repeat(32 * 1024 + 1));
    expect(await stateAfterSending(big)).toBe(1009);
  });

  it('closes a connection with 1009 on a message over 128 KB, even in frames of 32 KB, and passes 128 KB', async () => {
    const gateway = await serve();
    const sendInFrames = (socket: WebSocket, bytes: number) => {
      const frame = 32 * 1024;
      for (let sent = 0; sent < bytes; sent += frame) socket.send('x'.repeat(Math.min(frame, bytes - sent)), { fin: sent + frame >= bytes });
    };
    const fine = await connect(gateway);
    sendInFrames(fine.socket, 128 * 1024);
    expect(await stateAfterSending(fine)).toBe('open');
    fine.socket.close();

    const big = await connect(gateway);
    sendInFrames(big.socket, 128 * 1024 + 1);
    expect(await stateAfterSending(big)).toBe(1009);
  });

  it('refuses @connections data over 128 KB with 413 PayloadTooLargeException', async () => {
    const gateway = await serve();
    const response = await fetch(`${gateway.managementEndpoint}/@connections/any`, { method: 'POST', body: 'x'.repeat(128 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect(response.headers.get('x-amzn-errortype')).toBe('PayloadTooLargeException');
  });

  it('closes an idle connection with 1001, and ends one at its maximum age with 1001 however busy', async () => {
    const idle = await connect(await serve({ idleTimeoutMs: 200 }));
    expect(await idle.closed).toEqual({ code: 1001 });

    const busy = await connect(await serve({ maxConnectionAgeMs: 500, idleTimeoutMs: 300 }));
    // A message every 100 ms keeps it from ever being idle for 300 ms.
    const keepBusy = setInterval(() => busy.socket.send('{}'), 100);
    expect(await busy.closed).toEqual({ code: 1001 });
    clearInterval(keepBusy);
  });

  it('throttles $connect with 429 and messages with a "Too Many Requests" answer beyond their burst, each route with its own bucket', async () => {
    // Buckets that refill too slowly to matter during the test: the burst is all there is.
    const gateway = await serve({ throttle: { default: { burstLimit: 2, rateLimit: 0.001 }, routes: { $connect: { burstLimit: 1, rateLimit: 0.001 } } } });
    const connection = await connect(gateway); // $connect's only token
    connection.socket.send('{}'); // $default's first
    connection.socket.send('{}'); // its second
    connection.socket.send('{}');
    await expect.poll(() => connection.received.length).toBe(1);
    expect(JSON.parse(connection.received[0]!)).toMatchObject({ message: 'Too Many Requests', connectionId: expect.any(String) });
    await expect(connect(gateway)).rejects.toThrow('refused: 429');
  });
});
