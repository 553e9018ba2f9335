/**
 * The reads the early entry (web/src/early.ts) starts before the app's code has arrived, handed
 * to the app: /config.json (loadRuntimeConfig) and, for a kept session with fresh tokens, the
 * profile and the page's first GETs (the API client). Each is adopted at most once, by the
 * request it stands for (same URL, same token), and what the app's start did not adopt is
 * dropped (dropEarlyReads), so a later read never gets an answer from the page's load.
 */
import { rememberedRole, storedSessionOf } from '../auth/session';
import { FIRST_READ_PATHS, firstReadsOf } from './first-reads';
import { apiRequestHeaders } from './request-headers';

interface EarlyRead {
  /** The ID token it carries: another token is another caller. */
  idToken: string;
  response: Promise<Response>;
}

let earlyConfig: Promise<unknown> | null = null;
const earlyReads = new Map<string, EarlyRead>();

/** Fetches /config.json (as index.html preloads it), answering its JSON; rejects when it failed. */
export async function fetchConfigJson(): Promise<unknown> {
  const response = await fetch('/config.json');
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return response.json();
}

/**
 * Starts /config.json and, when this browser keeps a session whose tokens are fresh, `GET /me`
 * and `pathname`'s first reads (FIRST_READS, with the user's remembered role) as soon as the
 * configuration names the API and the app's client: what the app's start would send first.
 */
export function startEarlyReads(pathname: string): void {
  earlyConfig = fetchConfigJson();
  earlyConfig.then(
    (config) => {
      const { apiUrl, userPoolClientId } = (config ?? {}) as { apiUrl?: unknown; userPoolClientId?: unknown };
      if (typeof apiUrl !== 'string' || typeof userPoolClientId !== 'string') return; // the app reports a bad configuration
      const session = storedSessionOf(userPoolClientId);
      if (!session) return; // none kept, or due for a refresh, which needs Amplify: the app reads as before
      for (const path of [FIRST_READ_PATHS.ownProfile, ...firstReadsOf(pathname, rememberedRole(session.userId))]) {
        const url = new URL(`${apiUrl}${path}`).href;
        // The request the app's client would send (lib/api/client.ts), for it to adopt.
        const response = fetch(url, { method: 'GET', headers: apiRequestHeaders(session.idToken, false) });
        response.catch(() => undefined); // a failure is the adopting request's to report
        earlyReads.set(url, { idToken: session.idToken, response });
      }
    },
    () => undefined, // the app's own read of the configuration reports it
  );
}

/** The early entry's /config.json, once; null when it did not run or its read was adopted. */
export function takeEarlyConfig(): Promise<unknown> | null {
  const config = earlyConfig;
  earlyConfig = null;
  return config;
}

/** The early answer to a GET of `url` carrying `idToken`, once; null when there is none for it. */
export function takeEarlyRead(url: string, idToken: string | null): Promise<Response> | null {
  const read = earlyReads.get(url);
  earlyReads.delete(url);
  return read && read.idToken === idToken ? read.response : null;
}

/** Forgets the early reads the app's start did not adopt. */
export function dropEarlyReads(): void {
  earlyConfig = null;
  earlyReads.clear();
}
