import { afterAll, vi } from 'vitest';

/**
 * Before each integration or browser test file, in a worker that runs several (vitest.config.ts: `isolate:
 * false`): our own modules are evaluated afresh for the file — the domain code a test imports
 * creates its SDK clients from the environment of the file's own stack, and the local stack's
 * modules keep state per stack — while what comes from node_modules stays loaded. After the file,
 * the process's environment is again what it was before it: a stack writes its endpoints and
 * settings there (a short auto-release delay of one file must not reach the next).
 */
const environment = { ...process.env };
vi.resetModules();
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
});
