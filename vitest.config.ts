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
    // One file at a time (Vitest's default on 2 cores). Two at a time was measured no faster
    // once each file's DynamoDB Local ran a short-lived JVM (18.2 minutes against 17.7: the
    // cores are busy either way), and it starves the timing of tests that watch a schedule
    // come due (auto-release.test.ts's first reminder ran before the test looked).
    env: { LOG_LEVEL: 'warn' },
    // A hang guard, not a budget: a busy CI machine runs a first test (every function cold) far slower than a quiet one.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
