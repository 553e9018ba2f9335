import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { seedDemoDataOnce } from '../../infra/local/seed.js';
import { freePort } from '../../infra/local/processes.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import { previewWebApp } from '../../infra/local/web-preview.js';

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
    mailboxUrl: string;
    /** The stack's endpoints as the app reads them (API, user pool, Stripe simulator), for set-up through the API. */
    runtimeConfig: RuntimeConfig;
    /** The stack's table, for set-up that the deploy writes directly (the invited admin's profile). */
    table: { endpoint: string; name: string };
  }
}

/**
 * A fresh local stack with the demo data, and the production build of the web app served
 * by Vite's preview server with the stack's /config.json — what `npm run dev` runs, built
 * (infra/local/web-preview.ts).
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-e2e-'));
  // The config's `env` reaches the test files, not this process, whose environment the local
  // functions inherit their log level from: without it every function logs at INFO.
  process.env.LOG_LEVEL ??= project.config.env.LOG_LEVEL;
  // The web app's port first: links in emails lead there.
  const webPort = await freePort();
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, webOrigin: `http://127.0.0.1:${webPort}` });
  await seedDemoDataOnce(stack, dataDir);
  const web = await previewWebApp(stack.config, { port: webPort });
  project.provide('webUrl', web.url);
  project.provide('mailboxUrl', stack.urls.mailbox);
  project.provide('runtimeConfig', stack.config);
  project.provide('table', { endpoint: stack.urls.dynamodb, name: stack.tableName });
  return async () => {
    await web.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
