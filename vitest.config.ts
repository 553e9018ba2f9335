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
    // One file at a time on 2 cores (Vitest's default there). Two at a time ran in 18 minutes
    // instead of 22, but two stacks starting together race for ports: a port one stack chose
    // for a child process (cognito-local, DynamoDB Local) that binds it seconds later can be
    // taken meanwhile by the other stack's emulator (seen: cognito's calls answered by the other
    // stack's Secrets Manager). Ports reserved per worker would be needed first.
    env: { LOG_LEVEL: 'warn' },
    // A hang guard, not a budget: a busy CI machine runs a first test (every function cold) far slower than a quiet one.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
