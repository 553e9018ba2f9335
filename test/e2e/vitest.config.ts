import { defineConfig } from 'vitest/config';

// Developers and CI run Node 20; Lambda runs Node 22. The SDK's upgrade notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// CI runs this suite beside `npm test`: its stacks pick ports from slices `npm test`'s workers do
// not use (infra/local/processes.ts). Set here, before the global setup starts the suite's stack
// in this process, and inherited by the test workers.
process.env.LOCAL_PORT_SLICE_OFFSET ??= '6';

/** Browser tests: the built web app against a fresh local stack, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    root: '.',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    // The files in one process, each with our modules afresh (test/support/file-isolation.ts):
    // Playwright and the rest of node_modules load once, not once per file (11% less CPU measured).
    isolate: false,
    setupFiles: ['test/support/file-isolation.ts'],
    env: { LOG_LEVEL: 'warn' },
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // A page's first data arrives in well under a second on a quiet machine; CI machines are not quiet.
    expect: { poll: { timeout: 20_000 } },
  },
});
