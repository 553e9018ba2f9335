/**
 * The early entry: a few KB that index.html runs before the app's entry (main.tsx, ~116 KB
 * gzip) has downloaded, to start /config.json, a kept session's first reads and the page's
 * chunks beside that download; the app adopts the reads (lib/api/early-reads.ts). Built as its
 * own input (vite.config.ts); it imports nothing of React, Amplify or the app.
 */
import { startEarlyReads } from './lib/api/early-reads';
import { mayKeepSession } from './lib/auth/session';
import { preloadFirstChunks } from './lib/first-chunks';

startEarlyReads(window.location.pathname);
preloadFirstChunks(window.location.pathname, mayKeepSession());
