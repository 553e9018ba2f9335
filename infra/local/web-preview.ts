import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { preview } from 'vite';
import type { RuntimeConfig } from '../../shared/runtime-config.js';

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

/** /config.json for the local stack, as the web stack serves it in AWS: revalidated on every load (SITE_CACHE_CONTROL.entryPoints). */
export function serveRuntimeConfig(config: RuntimeConfig) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('cache-control', 'no-cache');
    response.end(JSON.stringify(config));
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
