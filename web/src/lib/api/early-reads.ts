/**
 * The reads the early entry (web/src/early.ts) starts before the app's code has arrived, handed
 * to the app: /config.json (loadRuntimeConfig) and, for a kept session with fresh tokens, the
 * profile and the page's first GETs (the API client), sent at once to the API and app client of
 * the configuration read on the last visit (rememberConfig), not after /config.json's answer:
 * when that arrives together with the app's entry, the entry's evaluation, a long task, would
 * come first. Each is adopted at most once, by the
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

/** Where the last configuration's API and app client are kept, for the next visit's early reads. */
const LAST_CONFIG_KEY = 'oddjobs.lastConfig';

interface EarlyReadsConfig {
  apiUrl: string;
  userPoolClientId: string;
}

/** Remembers the configuration's API and app client (loadRuntimeConfig, on every start). */
export function rememberConfig({ apiUrl, userPoolClientId }: EarlyReadsConfig): void {
  try {
    window.localStorage.setItem(LAST_CONFIG_KEY, JSON.stringify({ apiUrl, userPoolClientId }));
  } catch {
    // no storage: no early reads
  }
}

function lastConfig(): EarlyReadsConfig | null {
  try {
    const { apiUrl, userPoolClientId } = (JSON.parse(window.localStorage.getItem(LAST_CONFIG_KEY) ?? 'null') ?? {}) as Partial<Record<string, unknown>>;
    return typeof apiUrl === 'string' && typeof userPoolClientId === 'string' ? { apiUrl, userPoolClientId } : null;
  } catch {
    return null;
  }
}

/**
 * Starts /config.json and, when this browser keeps a session whose tokens are fresh, `GET /me`
 * and `pathname`'s first reads (FIRST_READS, with the user's remembered role): what the app's
 * start would send first. A configuration changed since the last visit makes them reads nobody
 * adopts (another URL, or no fresh session for the new client), never a wrong answer.
 */
export function startEarlyReads(pathname: string): void {
  earlyConfig = fetchConfigJson();
  earlyConfig.catch(() => undefined); // the app's own read of the configuration reports it
  const config = lastConfig();
  const session = config && storedSessionOf(config.userPoolClientId);
  if (!config || !session) return; // none kept, or due for a refresh, which needs Amplify: the app reads as before
  for (const path of [FIRST_READ_PATHS.ownProfile, ...firstReadsOf(pathname, rememberedRole(session.userId))]) {
    const url = new URL(`${config.apiUrl}${path}`).href;
    // The request the app's client would send (lib/api/client.ts), for it to adopt.
    const response = fetch(url, { method: 'GET', headers: apiRequestHeaders(session.idToken, false) });
    response.catch(() => undefined); // a failure is the adopting request's to report
    earlyReads.set(url, { idToken: session.idToken, response });
  }
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
