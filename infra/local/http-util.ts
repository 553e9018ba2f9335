import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Listening {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Starts listening on 127.0.0.1 (port 0 picks a free one) and reports the real port.
 *
 * Idle connections are never closed by the server, only by close(). Node's default closes them
 * after 5 s and tells clients so; a client's agent stops reusing a socket a second before, by a
 * timer — which, on a machine busy enough that timers run late, fires after the server closed
 * the socket, and the request written on it fails with ECONNRESET ("socket hang up", which the
 * tests' own clients do not retry).
 */
export function listen(server: Server, port: number): Promise<Listening> {
  server.keepAliveTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

/** decodeURIComponent that answers undefined for a malformed %-escape instead of throwing URIError. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * A request listener that can never take the server down: whatever escapes `listener` is
 * logged and answered 500 (a gateway bug, never the caller's input; that is answered 4xx).
 */
export function guarded(name: string, listener: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    Promise.resolve()
      .then(() => listener(req, res))
      .catch((error: unknown) => {
        console.error(`[${name}] ${req.method} ${req.url} failed`, error);
        if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
        else res.destroy();
      });
  };
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  return (await readBodyWithin(req, Infinity))!;
}

/**
 * The body, or undefined when it is longer than `maxBytes`. The rest of a body too long is
 * still read (and dropped), so that the client, still sending, receives the refusal.
 */
export async function readBodyWithin(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req) {
    length += (chunk as Buffer).length;
    if (length <= maxBytes) chunks.push(chunk as Buffer);
  }
  return length <= maxBytes ? Buffer.concat(chunks) : undefined;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Permissive CORS for the local endpoints the browser calls directly. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
  'access-control-expose-headers': '*',
  'access-control-max-age': '600',
};
