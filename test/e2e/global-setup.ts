import type { TestProject } from 'vitest/node';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { startE2eStack } from './e2e-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
    mailboxUrl: string;
    /** The local Web Push service (infra/local/push-receiver.ts), which tests reach over HTTP. */
    pushReceiverUrl: string;
    /** The stack's endpoints as the app reads them (API, user pool, Stripe simulator), for set-up through the API. */
    runtimeConfig: RuntimeConfig;
    /** The stack's table, for set-up that the deploy writes directly (the invited admin's profile). */
    table: { endpoint: string; name: string };
  }
}

/** The suite's one stack (e2e-stack.ts), with the deploy's settings (auto-release after 72 hours). */
export default async function setup(project: TestProject) {
  // The config's `env` reaches the test files, not this process, whose environment the local
  // functions inherit their log level from: without it every function logs at INFO.
  process.env.LOG_LEVEL ??= project.config.env.LOG_LEVEL;
  const stack = await startE2eStack();
  project.provide('webUrl', stack.webUrl);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('pushReceiverUrl', stack.pushReceiverUrl);
  project.provide('runtimeConfig', stack.runtimeConfig);
  project.provide('table', stack.table);
  return () => stack.stop();
}
