import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The screen most visits start on: its chunk is fetched with the entry's, not after it ran. */
const FIRST_SCREEN = 'src/features/landing/screens/LandingScreen.tsx';

/**
 * `<link rel="modulepreload">` for FIRST_SCREEN's chunk and the chunks it imports, beside
 * the entry's own: the landing page's content no longer waits for the entry to download and
 * run before its chunk is even asked for. Other pages download it too (about 10 KB gzip),
 * and run it only when shown.
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'oddjobs-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return [];
        const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
        const screen = chunks.find((chunk) => chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(FIRST_SCREEN));
        if (!screen) throw new Error(`no chunk for ${FIRST_SCREEN}: was it renamed?`);
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const reach = (from: Rolldown.OutputChunk, into: Set<string>) => {
          if (into.has(from.fileName)) return into;
          into.add(from.fileName);
          for (const name of from.imports) reach(byName.get(name)!, into);
          return into;
        };
        const loaded = reach(entry, new Set());
        return [...reach(screen, new Set())]
          .filter((name) => !loaded.has(name))
          .map((name) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${name}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/** The early entry (web/src/early.ts): a rollup input of its own, run before the app's entry. */
const EARLY_ENTRY = 'src/early.ts';

/**
 * Puts the early entry's script first in index.html's head, before the app's entry: module
 * scripts run in document order, so the small one runs while the big one is still downloading.
 * (A script in index.html itself would be bundled into the app's entry; an inline one the CSP
 * refuses.)
 */
function runEarlyEntryFirst(): Plugin {
  return {
    name: 'oddjobs-early-entry-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const early = Object.values(bundle).find(
          (output): output is Rolldown.OutputChunk => output.type === 'chunk' && output.isEntry && !!output.facadeModuleId?.replaceAll('\\', '/').endsWith(EARLY_ENTRY),
        );
        if (!early) throw new Error(`no chunk for ${EARLY_ENTRY}: was it renamed?`);
        return [{ tag: 'script', attrs: { type: 'module', crossorigin: true, src: `/${early.fileName}` }, injectTo: 'head-prepend' as const }];
      },
    },
  };
}

/**
 * The SPA. The same build runs locally and in AWS: everything environment-specific comes
 * from /config.json at start-up (served by the local dev stack, a file next to index.html in AWS).
 */
export default defineConfig({
  root: webDir,
  plugins: [react(), preloadFirstScreen(), runEarlyEntryFirst()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Maps for symbolicating error reports, not referenced by the bundles and never deployed
    // (infra/stacks/web-stack.ts leaves *.map out of the site bucket).
    sourcemap: 'hidden',
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), early: fileURLToPath(new URL(`./${EARLY_ENTRY}`, import.meta.url)) },
      // The app's modules only declare things (components, hooks, lazy screens, contexts): main.tsx
      // alone runs code on load. Declared free of side effects, what an importer reaches through a
      // feature's index.ts but does not use (another screen's components and their styles) stays
      // out of its chunk, as when each file was imported by its own path (README "Web app layout").
      treeshake: { moduleSideEffects: [{ test: /[\\/]web[\\/]src[\\/](app|features|lib)[\\/].*\.tsx?$/, sideEffects: false }] },
    },
  },
  server: {
    // The web code imports the domain rules from ../shared.
    fs: { allow: [repoRoot] },
  },
});
