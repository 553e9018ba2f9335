import { FIRST_READS, matchRoutePath } from './api/first-reads.js';

/**
 * The chunks a first load needs beyond the app's entry, by page: the build (web/vite.config.ts)
 * writes them into index.html as a JSON data block, and the early entry (web/src/early.ts)
 * modulepreloads those of the page it is on, so they download beside the entry instead of
 * after it has run (when the router would first ask for them). index.html is the same on every
 * path: links written in it would make every page download every first screen.
 */
export interface FirstChunks {
  /** Route path → the chunks of its screen (files under the site's root). */
  screens: Record<string, string[]>;
  /** The header's signed-in controls, for a browser that keeps a session. */
  signedIn: string[];
}

/** The data block's id in index.html. */
export const FIRST_CHUNKS_ELEMENT_ID = 'oddjobs-first-chunks';

/** The screens most visits start on: route path → the screen's module (from web/). */
export const FIRST_SCREEN_MODULES: Record<string, string> = {
  '/': 'src/features/landing/screens/LandingScreen.tsx',
  '/dashboard': 'src/features/dashboards/screens/DashboardScreen.tsx',
  [FIRST_READS.jobDetail.path]: 'src/features/jobs/screens/JobDetailScreen.tsx',
  [FIRST_READS.workerDashboard.path]: 'src/features/dashboards/screens/worker-dashboard/WorkerDashboardScreen.tsx',
  [FIRST_READS.posterDashboard.path]: 'src/features/dashboards/screens/poster-dashboard/PosterDashboardScreen.tsx',
};

/** The header's signed-in controls (app/layout/SiteHeader.tsx loads them lazily). */
export const SIGNED_IN_CONTROLS_MODULE = 'src/app/layout/SignedInControls.tsx';

/**
 * Modulepreloads the chunks of `pathname`'s screen and, when `keepsSession`, the signed-in
 * controls', as index.html's data block lists them; nothing when it has none (the dev server).
 */
export function preloadFirstChunks(pathname: string, keepsSession: boolean): void {
  const block = document.getElementById(FIRST_CHUNKS_ELEMENT_ID);
  if (!block?.textContent) return;
  const { screens, signedIn } = JSON.parse(block.textContent) as FirstChunks;
  const screen = Object.entries(screens).find(([path]) => matchRoutePath(path, pathname));
  for (const file of [...(screen?.[1] ?? []), ...(keepsSession ? signedIn : [])]) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.append(link);
  }
}
