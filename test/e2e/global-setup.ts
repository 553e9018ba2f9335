import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { preview } from 'vite';
import type { TestProject } from 'vitest/node';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { seedDemoDataOnce } from '../../infra/local/seed.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
    mailboxUrl: string;
    /** The stack's endpoints as the app reads them (API, user pool, Stripe simulator), for set-up through the API. */
    runtimeConfig: RuntimeConfig;
  }
}

/**
 * A fresh local stack with the demo data, and the production build of the web app served
 * by Vite's preview server with the stack's /config.json — what `npm run dev` runs, built.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-e2e-'));
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS });
  await seedDemoDataOnce(stack, dataDir);
  const web = await preview({
    configFile: resolve(import.meta.dirname, '../../web/vite.config.ts'),
    preview: { port: 0, host: '127.0.0.1' },
    plugins: [
      {
        name: 'local-runtime-config',
        configurePreviewServer(server) {
          server.middlewares.use('/config.json', (_req, res) => {
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify(stack.config));
          });
        },
      },
    ],
  });
  const address = web.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  project.provide('webUrl', `http://127.0.0.1:${port}`);
  project.provide('mailboxUrl', stack.urls.mailbox);
  project.provide('runtimeConfig', stack.config);
  return async () => {
    await web.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
