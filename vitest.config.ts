import { defineConfig } from 'vitest/config';

// Developers and CI run Node 20; Lambda runs Node 22. The SDK's upgrade notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Each integration test file starts its own local stack, with its own DynamoDB Local
    // (test/support/local-stack.ts).
    pool: 'forks',
    // Two files at a time even on 2 cores (Vitest would take one): an integration file spends much
    // of its time waiting on its stack's emulators and queues. Measured on a 2-core machine, the
    // whole run fell from 22 to under 18 minutes with DynamoDB Local's short-lived JVM settings.
    maxWorkers: 2,
    env: { LOG_LEVEL: 'warn' },
    // A hang guard, not a budget: a busy CI machine runs a first test (every function cold) far slower than a quiet one.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
