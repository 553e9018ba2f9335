import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { FIRST_CHUNKS_ELEMENT_ID, FIRST_SCREEN_MODULES, SIGNED_IN_CONTROLS_MODULE, type FirstChunks } from './src/lib/first-chunks.js';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The early entry (web/src/early.ts): a rollup input of its own, run before the app's entry. */
const EARLY_ENTRY = 'src/early.ts';

/**
 * What index.html asks for before the app's entry has run:
 * - first in the head, the early entry's script and its chunks: module scripts run in document
 *   order, so the small one runs while the app's entry is still downloading (a script written in
 *   index.html would be bundled into the app's entry, an inline one the CSP refuses);
 * - a JSON data block (lib/first-chunks.ts) naming, for each first screen, its chunks and those
 *   they import, beside the entry's own, and the signed-in header controls' chunks: the early
 *   entry modulepreloads those of its page, so a page's content no longer waits for the entry to
 *   download and run before its chunk is even asked for, and no page downloads another's.
 *   (A data block is not a script: the CSP, which allows no inline script, does not apply.)
 */
function firstLoadTags(): Plugin {
  return {
    name: 'oddjobs-first-load-tags',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return [];
        const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
        const chunkOf = (source: string) => {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.replaceAll('\\', '/').endsWith(source));
          if (!chunk) throw new Error(`no chunk for ${source}: was it renamed?`);
          return chunk;
        };
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const reach = (from: Rolldown.OutputChunk, into: Set<string>) => {
          if (into.has(from.fileName)) return into;
          into.add(from.fileName);
          for (const name of from.imports) reach(byName.get(name)!, into);
          return into;
        };
        const preload = (name: string) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${name}` }, injectTo: 'head-prepend' as const });
        const [early, ...earlyImports] = reach(chunkOf(EARLY_ENTRY), new Set());
        const loaded = reach(entry, new Set(earlyImports));
        const notLoaded = (source: string) => [...reach(chunkOf(source), new Set())].filter((name) => !loaded.has(name));
        const firstChunks: FirstChunks = {
          screens: Object.fromEntries(Object.entries(FIRST_SCREEN_MODULES).map(([path, source]) => [path, notLoaded(source)])),
          signedIn: notLoaded(SIGNED_IN_CONTROLS_MODULE),
        };
        return [
          { tag: 'script', attrs: { type: 'module', crossorigin: true, src: `/${early}` }, injectTo: 'head-prepend' as const },
          ...earlyImports.map(preload),
          // '<' escaped: nothing in the JSON can close the element.
          { tag: 'script', attrs: { type: 'application/json', id: FIRST_CHUNKS_ELEMENT_ID }, children: JSON.stringify(firstChunks).replaceAll('<', '\\u003c'), injectTo: 'head' as const },
        ];
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
  plugins: [react(), firstLoadTags()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Maps for symbolicating error reports, not referenced by the bundles and never deployed
    // (infra/stacks/web-stack.ts leaves *.map out of the site bucket).
    sourcemap: 'hidden',
    // The map of search results (MapLibre GL JS, about 1 MB) is one chunk, loaded only when
    // someone opens the map (issue 46): a warning about it would be about no page's first load.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), early: fileURLToPath(new URL(`./${EARLY_ENTRY}`, import.meta.url)) },
      // The app's modules only declare things (components, hooks, lazy screens, contexts): main.tsx
      // alone runs code on load. Declared free of side effects, what an importer reaches through a
      // feature's index.ts but does not use (another screen's components and their styles) stays
      // out of its chunk, as when each file was imported by its own path (README "Web app layout").
      treeshake: { moduleSideEffects: [{ test: /[\\/]web[\\/]src[\\/](app|features|lib)[\\/].*\.tsx?$/, sideEffects: false }] },
      // Fewer, larger chunks: shared modules under 8 KB (before minifying) are copied into the
      // chunks that use them instead of being chunks of their own (Rolldown's shared runtime keeps
      // one instance of each module). A dashboard's first load went from 48 scripts to 17, and its
      // early entry's modulepreload links from 39 to 8, whose insertion costs per link (55 ms in a
      // profiled trace, issue 37; docs/decisions/0300). The entries export nothing: their
      // signatures may go.
      preserveEntrySignatures: false,
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 8 * 1024 } } },
    },
  },
  server: {
    // The web code imports the domain rules from ../shared.
    fs: { allow: [repoRoot] },
  },
});
