import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIRST_CHUNKS_ELEMENT_ID, preloadFirstChunks, type FirstChunks } from '../../web/src/lib/first-chunks.js';

const FIRST_CHUNKS: FirstChunks = {
  screens: { '/': ['assets/LandingScreen-a.js', 'assets/JobBoard-b.js'], '/jobs/:id': ['assets/JobDetailScreen-c.js', 'assets/JobBoard-b.js'] },
  signedIn: ['assets/SignedInControls-d.js'],
};

/** The little of the DOM preloadFirstChunks uses: index.html's data block (or none) and the head's links. */
function stubDocument(block: string | null): Array<{ rel: string; href: string; crossOrigin: string | null }> {
  const links: Array<{ rel: string; href: string; crossOrigin: string | null }> = [];
  vi.stubGlobal('document', {
    getElementById: (id: string) => (id === FIRST_CHUNKS_ELEMENT_ID && block !== null ? { textContent: block } : null),
    createElement: () => ({ rel: '', href: '', crossOrigin: null }),
    head: { append: (link: (typeof links)[number]) => links.push(link) },
  });
  return links;
}

describe("the early entry modulepreloads its page's chunks (web/src/lib/first-chunks.ts)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the job page's chunks on a job page, and the signed-in controls' when a session is kept", () => {
    const links = stubDocument(JSON.stringify(FIRST_CHUNKS));
    preloadFirstChunks('/jobs/6b1e4c2a', true);
    expect(links).toEqual(
      ['/assets/JobDetailScreen-c.js', '/assets/JobBoard-b.js', '/assets/SignedInControls-d.js'].map((href) => ({ rel: 'modulepreload', href, crossOrigin: '' })),
    );
  });

  it("asks for the landing page's chunks only on the landing page, and no signed-in controls for a visitor", () => {
    const links = stubDocument(JSON.stringify(FIRST_CHUNKS));
    preloadFirstChunks('/', false);
    expect(links.map((link) => link.href)).toEqual(['/assets/LandingScreen-a.js', '/assets/JobBoard-b.js']);
  });

  it('asks for nothing on a page that is not a first screen, nor without the data block (the dev server)', () => {
    const links = stubDocument(JSON.stringify(FIRST_CHUNKS));
    preloadFirstChunks('/profile', false);
    stubDocument(null);
    preloadFirstChunks('/jobs/6b1e4c2a', true);
    expect(links).toEqual([]);
  });
});

describe("the build writes each first screen's chunks into index.html (web/vite.config.ts)", () => {
  let files: Map<string, Rolldown.OutputChunk | Rolldown.OutputAsset>;
  let html: string;
  let firstChunks: FirstChunks;
  beforeAll(async () => {
    const output = (await build({ configFile: fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)), logLevel: 'silent', build: { write: false, sourcemap: false } })) as Rolldown.RolldownOutput;
    files = new Map(output.output.map((file) => [file.fileName, file]));
    html = String((files.get('index.html') as Rolldown.OutputAsset).source);
    const block = new RegExp(`<script type="application/json" id="${FIRST_CHUNKS_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
    firstChunks = JSON.parse(block![1]!) as FirstChunks;
  }, 120_000);

  it("names the chunks a screen needs beyond the entry, for the early entry to preload, and preloads no screen's on every page", () => {
    const screenChunk = (path: string, name: string) => firstChunks.screens[path]!.find((file) => file.startsWith(`assets/${name}-`));
    expect(screenChunk('/', 'LandingScreen')).toBeDefined();
    expect(screenChunk('/jobs/:id', 'JobDetailScreen')).toBeDefined();
    expect(screenChunk('/worker-dashboard', 'WorkerDashboardScreen')).toBeDefined();
    expect(screenChunk('/poster-dashboard', 'PosterDashboardScreen')).toBeDefined();
    expect(screenChunk('/jobs/:id', 'LandingScreen')).toBeUndefined();
    expect(firstChunks.signedIn.some((file) => file.startsWith('assets/SignedInControls-'))).toBe(true);
    // Every file named is a chunk of the build, and none is one index.html already loads.
    for (const file of [...Object.values(firstChunks.screens).flat(), ...firstChunks.signedIn]) {
      expect(files.get(file)?.type).toBe('chunk');
      expect(html).not.toContain(`href="/${file}"`);
    }
    expect(html).not.toMatch(/modulepreload[^>]*LandingScreen-/);
  });

  it('keeps zod and Amplify out of every first screen\'s load: forms, the console and a token refresh bring them when used (docs/decisions/0301-zod-leaves-the-first-load.md)', () => {
    const chunk = (file: string) => files.get(file) as Rolldown.OutputChunk;
    /** A first load's modules: the entries', the screen's and the signed-in controls' chunks, with what they import. */
    const modulesOf = (screen: string[]) => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        chunk(file).imports.forEach(visit);
      };
      [...files.values()].filter((file) => file.type === 'chunk' && file.isEntry).forEach((entry) => visit(entry.fileName));
      [...screen, ...firstChunks.signedIn].forEach(visit);
      return [...seen].flatMap((file) => chunk(file).moduleIds);
    };
    for (const [path, screen] of Object.entries(firstChunks.screens)) {
      const modules = modulesOf(screen);
      expect(modules.some((id) => id.includes('/web/src/app/App.tsx')), path).toBe(true);
      expect(modules.filter((id) => /node_modules\/(zod|aws-amplify|@aws-amplify)\//.test(id)), path).toEqual([]);
    }
  });
});
