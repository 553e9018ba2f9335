import { defineConfig } from 'vitest/config';

// Developers and CI run Node 20; Lambda runs Node 22. The SDK's upgrade notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** What every project shares. */
const shared = {
  // Each integration test file starts its own local stack, with its own DynamoDB Local
  // (test/support/local-stack.ts).
  pool: 'forks',
  // One file at a time (Vitest's default on 2 cores). Two at a time was measured no faster
  // once each file's DynamoDB Local ran a short-lived JVM (18.2 minutes against 17.7: the
  // cores are busy either way), and it starves the timing of tests that watch a schedule
  // come due (auto-release.test.ts's first reminder ran before the test looked).
  env: { LOG_LEVEL: 'warn' },
  // A hang guard, not a budget: a busy CI machine runs a first test (every function cold) far slower than a quiet one.
  testTimeout: 60_000,
  hookTimeout: 90_000,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        // Unit and CDK assertion tests, each file in a fresh process: some mock modules (vi.mock), which would leak into the next file of a shared one.
        test: { ...shared, name: 'unit', include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'] },
      },
      {
        // Integration tests, the files of a worker in one process (test/support/file-isolation.ts
        // gives each file our modules afresh and the environment it started with): what they load
        // from node_modules (the AWS SDK, the emulators) is evaluated once per worker, not once per
        // file — measured 17% less CPU over eight files.
        test: { ...shared, name: 'integration', include: ['test/integration/**/*.test.ts'], isolate: false, setupFiles: ['test/support/file-isolation.ts'] },
      },
    ],
  },
});
