/**
 * The early entry: a few KB that index.html runs before the app's entry (main.tsx, ~116 KB
 * gzip) has downloaded, to start /config.json and a kept session's first reads beside that
 * download; the app adopts them (lib/api/early-reads.ts). Built as its own input (vite.config.ts);
 * it imports nothing of React, Amplify or the app.
 */
import { startEarlyReads } from './lib/api/early-reads';

startEarlyReads(window.location.pathname);
