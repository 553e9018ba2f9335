import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The SPA. The same build runs locally and in AWS: everything environment-specific comes
 * from /config.json at start-up (served by the local dev stack, a file next to index.html in AWS).
 */
export default defineConfig({
  root: webDir,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Maps for symbolicating error reports, not referenced by the bundles and never deployed
    // (infra/stacks/web-stack.ts leaves *.map out of the site bucket).
    sourcemap: 'hidden',
  },
  server: {
    // The web code imports the domain rules from ../shared.
    fs: { allow: [repoRoot] },
  },
});
