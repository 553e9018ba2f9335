import { readFile } from 'node:fs/promises';
import { request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { preview } from 'vite';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { API_PATH, isApiPath, routeSiteRequest } from '../constructs/site-request.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const WEB_DIST_DIR = join(REPO_ROOT, 'web/dist');
const HASHED_ASSETS = '/assets/';

const TEXT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const gzipped = promisify(gzip);

export interface WebPreview {
  url: string;
  close(): Promise<void>;
}

export interface WebPreviewOptions {
  port?: number;
  /**
   * A certificate and key: served over HTTPS and so HTTP/2, as CloudFront serves the site (one
   * connection for all the chunks, where HTTP/1.1 queues them on six). Browsers must be told to
   * accept the certificate.
   */
  tls?: { cert: string; key: string };
}

/** The origin a request was sent to (HTTP/2 names it in `:authority`, HTTP/1.1 in Host). */
function requestOrigin(request: IncomingMessage): string {
  const host = request.headers[':authority'] ?? request.headers.host;
  const secure = 'encrypted' in request.socket && request.socket.encrypted;
  return `${secure ? 'https' : 'http'}://${String(host)}`;
}

/**
 * /config.json for the local stack, as the web stack serves it in AWS: the API on the page's
 * own origin (serveApiOnSite), revalidated on every load (SITE_CACHE_CONTROL.entryPoints).
 */
export function serveRuntimeConfig(config: RuntimeConfig) {
  return (request: IncomingMessage, response: ServerResponse) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('cache-control', 'no-cache');
    response.end(JSON.stringify({ ...config, apiUrl: `${requestOrigin(request)}${API_PATH}` }));
  };
}

/** Headers of one hop (and HTTP/2's pseudo-headers), which a proxy does not pass on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te', 'trailer']);
const endToEnd = (headers: IncomingMessage['headers']) =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && !name.startsWith(':') && value !== undefined)) as Record<string, string | string[]>;

/**
 * The site's API path as the distribution serves it in AWS (infra/constructs/site-request.ts,
 * whose code rewrites the path here too): a request under API_PATH goes to the local HTTP API
 * at `apiUrl` with the prefix taken off, every header but Host passed on, uncached.
 */
export function serveApiOnSite(apiUrl: string) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void) => {
    const [path = '/', query] = (request.url ?? '/').split(/\?(.*)/s);
    if (!isApiPath(path)) return next();
    const target = new URL(`${routeSiteRequest(path)}${query ? `?${query}` : ''}`, apiUrl);
    const upstream = forward(target, { method: request.method, headers: endToEnd(request.headers) }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(response);
    });
    upstream.on('error', () => {
      // As CloudFront when its origin cannot be reached.
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('Bad Gateway');
    });
    request.pipe(upstream);
  };
}

/**
 * The production build of the web app (web/dist, from `npm run build`) on Vite's preview
 * server, with the local stack's /config.json. Text assets go out gzipped and cached as
 * CloudFront serves them in AWS (infra/stacks/web-stack.ts), so what a browser downloads here
 * is what it downloads there: the browser tests and `npm run bench -- web` load it.
 */
export async function previewWebApp(config: RuntimeConfig, { port = 0, tls }: WebPreviewOptions = {}): Promise<WebPreview> {
  const compressed = new Map<string, Promise<Buffer>>();
  const server = await preview({
    configFile: join(REPO_ROOT, 'web/vite.config.ts'),
    logLevel: 'warn',
    preview: { port, host: '127.0.0.1', strictPort: port !== 0, ...(tls ? { https: tls } : {}) },
    plugins: [
      {
        name: 'local-runtime-config',
        configurePreviewServer(previewServer) {
          previewServer.middlewares.use('/config.json', serveRuntimeConfig(config));
          previewServer.middlewares.use(serveApiOnSite(config.apiUrl));
          // Hashed assets as CloudFront serves them: compressed and kept for a year.
          previewServer.middlewares.use((req, res, next) => {
            const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
            const type = TEXT_TYPES[extname(path)];
            if (!path.startsWith(HASHED_ASSETS) || !type || !/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) return next();
            const file = normalize(join(WEB_DIST_DIR, path));
            if (!file.startsWith(WEB_DIST_DIR)) return next();
            let body = compressed.get(file);
            if (!body) {
              body = readFile(file).then((content) => gzipped(content));
              compressed.set(file, body);
            }
            body.then(
              (bytes) => {
                res.setHeader('content-type', type);
                res.setHeader('content-encoding', 'gzip');
                res.setHeader('vary', 'accept-encoding');
                res.setHeader('cache-control', 'public, max-age=31536000, immutable');
                res.end(bytes);
              },
              () => {
                compressed.delete(file);
                next();
              },
            );
          });
        },
      },
    ],
  });
  const address = server.httpServer.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${actual}`, close: () => server.close() };
}
