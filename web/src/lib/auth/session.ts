/**
 * The way to aws-amplify (auth/amplify.ts), which loads on first use: at start-up when this
 * browser keeps a session from an earlier visit, else when the visitor signs in or up. Until
 * then a visitor is known to be signed out without it.
 */
import { fromBase64Url } from '../../../../shared/base64url';
import { isRole, type Role } from '../../../../shared/roles';
import type { RuntimeConfig } from '../../../../shared/runtime-config';
import type * as AmplifyModule from './amplify';

export type Amplify = typeof AmplifyModule;

let authConfig: RuntimeConfig | null = null;
let loading: Promise<Amplify> | null = null;
const onLoad = new Set<(amplify: Amplify) => void>();

/**
 * Start-up, with /config.json: Amplify starts loading now only if a kept session needs it, its
 * tokens being due for a refresh. While they are fresh, requests carry them as they are stored
 * (freshStoredSession) and Amplify loads on its first real use (a refresh, sign-in, sign-out).
 */
export function configureAuth(config: RuntimeConfig): void {
  authConfig = config;
  if (hasStoredSession() && !freshStoredSession()) void loadAmplify();
}

const AMPLIFY_KEY_PREFIX = 'CognitoIdentityServiceProvider.';
const LAST_AUTH_USER = '.LastAuthUser';

/** The app clients that keep a session here (from `<prefix><client>.LastAuthUser`). */
function keptSessionClients(): string[] {
  const clients: string[] = [];
  try {
    const storage = window.localStorage;
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      if (key?.startsWith(AMPLIFY_KEY_PREFIX) && key.endsWith(LAST_AUTH_USER)) clients.push(key.slice(AMPLIFY_KEY_PREFIX.length, -LAST_AUTH_USER.length));
    }
  } catch {
    // no storage, no kept session
  }
  return clients;
}

/**
 * Whether Amplify may keep a session here, for any client: readable at start-up, before
 * /config.json names the app's client (hasStoredSession answers for it).
 */
export function mayKeepSession(): boolean {
  return keptSessionClients().length > 0;
}

/** Whether a kept session's tokens are due for a refresh, which needs Amplify: readable before /config.json. */
export function keptSessionNeedsRefresh(): boolean {
  return keptSessionClients().some((client) => storedSessionOf(client) === null);
}

interface JwtClaims {
  sub?: unknown;
  exp?: unknown;
}

/**
 * Claims already decoded, by token: the kept session is read at every route's load and in every
 * request's headers, and decoding its two tokens each time was milliseconds of a phone's start-up.
 */
const decodedClaims = new Map<string, JwtClaims | null>();

/** A JWT's claims, read without checking its signature (the API checks it); null when it is not one. */
function jwtClaims(token: string): JwtClaims | null {
  if (!decodedClaims.has(token)) {
    // A session's tokens change when refreshed (hourly): the ones before are not asked for again.
    if (decodedClaims.size >= 8) decodedClaims.clear();
    decodedClaims.set(token, decodeClaims(token));
  }
  return decodedClaims.get(token)!;
}

function decodeClaims(token: string): JwtClaims | null {
  const payload = fromBase64Url(token.split('.')[1] ?? '');
  if (!payload) return null;
  try {
    return JSON.parse(payload) as JwtClaims;
  } catch {
    return null;
  }
}

/** Amplify refreshes tokens that expire within 5 s (its isTokenExpired tolerance); so does this. */
const EXPIRY_TOLERANCE_MS = 5_000;

export interface StoredSession {
  idToken: string;
  /** The Cognito `sub`, which is also the profile id. */
  userId: string;
}

/**
 * The kept session's ID token and user, read where Amplify keeps them, while Amplify would use
 * them as they are: both the ID and access tokens unexpired by its rule (now + stored clock
 * drift + 5 s before `exp`). Null when none is kept or they are due for a refresh.
 */
export function storedSessionOf(client: string): StoredSession | null {
  try {
    const storage = window.localStorage;
    const prefix = `${AMPLIFY_KEY_PREFIX}${client}`;
    const user = storage.getItem(`${prefix}${LAST_AUTH_USER}`);
    if (!user) return null;
    const idToken = storage.getItem(`${prefix}.${user}.idToken`);
    const accessToken = storage.getItem(`${prefix}.${user}.accessToken`);
    const id = idToken ? jwtClaims(idToken) : null;
    const access = accessToken ? jwtClaims(accessToken) : null;
    if (!idToken || !id || !access || typeof id.sub !== 'string' || typeof id.exp !== 'number' || typeof access.exp !== 'number') return null;
    const clockDrift = Number(storage.getItem(`${prefix}.${user}.clockDrift`)) || 0;
    const now = Date.now() + clockDrift + EXPIRY_TOLERANCE_MS;
    return now < id.exp * 1000 && now < access.exp * 1000 ? { idToken, userId: id.sub } : null;
  } catch {
    return null; // no storage: nothing was kept
  }
}

/** The app client's kept session while its tokens are fresh (see storedSessionOf), without Amplify. */
export function freshStoredSession(): StoredSession | null {
  return authConfig ? storedSessionOf(authConfig.userPoolClientId) : null;
}

/** Where the signed-in user's role is remembered, by user: the tokens do not carry it (only /me says it). */
const ROLE_KEY_PREFIX = 'oddjobs.role.';

/**
 * Remembers a user's role (it never changes) once their profile has loaded, so that a later
 * visit's first requests can include the role's own (keptSessionRole) before /me answers.
 */
export function rememberRole(userId: string, role: Role): void {
  try {
    window.localStorage.setItem(`${ROLE_KEY_PREFIX}${userId}`, role);
  } catch {
    // no storage: the role is read from /me only
  }
}

/** The role remembered for a user (rememberRole); null when unknown. */
export function rememberedRole(userId: string): Role | null {
  try {
    const role = window.localStorage.getItem(`${ROLE_KEY_PREFIX}${userId}`);
    return isRole(role) ? role : null;
  } catch {
    return null;
  }
}

/** The role remembered for the kept session's user while its tokens are fresh; null when unknown. */
export function keptSessionRole(): Role | null {
  const session = freshStoredSession();
  return session ? rememberedRole(session.userId) : null;
}

/** Starts downloading Amplify ahead of its use (loadAmplify reports a failed download). */
export function prefetchAmplify(): void {
  import('./amplify').catch(() => undefined);
}

/** Amplify, configured; loaded once. */
export function loadAmplify(): Promise<Amplify> {
  loading ??= import('./amplify').then(
    (amplify) => {
      if (!authConfig) throw new Error('configureAuth must run before Amplify is used');
      amplify.configureAmplify(authConfig);
      for (const listener of onLoad) listener(amplify);
      return amplify;
    },
    (error: unknown) => {
      loading = null; // a failed chunk download is tried again on the next use
      throw error;
    },
  );
  return loading;
}

/** Calls `listener` once Amplify has loaded (at once if it has), without loading it; returns the unsubscribe. */
export function whenAmplifyLoaded(listener: (amplify: Amplify) => void): () => void {
  let active = true;
  const call = (amplify: Amplify) => {
    if (active) listener(amplify);
  };
  if (loading) void loading.then(call, () => undefined);
  else onLoad.add(call);
  return () => {
    active = false;
    onLoad.delete(call);
  };
}

/**
 * Whether this browser keeps a Cognito session for the app's client, read where Amplify keeps
 * it (its token store in localStorage: `CognitoIdentityServiceProvider.<client>.LastAuthUser`,
 * and that user's access token, without which Amplify finds no session either).
 */
export function hasStoredSession(): boolean {
  if (!authConfig) return false;
  const prefix = `${AMPLIFY_KEY_PREFIX}${authConfig.userPoolClientId}`;
  try {
    const user = window.localStorage.getItem(`${prefix}${LAST_AUTH_USER}`) ?? 'username';
    return window.localStorage.getItem(`${prefix}.${user}.accessToken`) !== null;
  } catch {
    return false; // no storage: nothing was kept
  }
}

/**
 * Removes the app client's kept session from this browser at once, before Amplify's own sign-out
 * (which first waits for Cognito to revoke the tokens): after the account's deletion nothing
 * may find them meanwhile, neither a reload nor another tab nor the API client.
 */
export function forgetStoredSession(): void {
  if (!authConfig) return;
  const prefix = `${AMPLIFY_KEY_PREFIX}${authConfig.userPoolClientId}.`;
  try {
    const storage = window.localStorage;
    const kept = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key): key is string => key?.startsWith(prefix) ?? false);
    for (const key of kept) storage.removeItem(key);
  } catch {
    // no storage: nothing was kept
  }
}

/** Amplify is needed when it is running (it may hold the session in memory) or a session is kept. */
const mayBeSignedIn = () => loading !== null || hasStoredSession();

/**
 * The signed-in user's Cognito ID token, or null: the stored one while it is fresh, so a request
 * starts without waiting for Amplify to load and restore the session; else Amplify's, refreshed.
 */
export async function currentIdToken(): Promise<string | null> {
  const stored = freshStoredSession();
  if (stored) return stored.idToken;
  if (!mayBeSignedIn()) return null;
  try {
    const session = await (await loadAmplify()).fetchAuthSession();
    return session.tokens?.idToken?.toString() ?? null;
  } catch {
    return null;
  }
}

/** The signed-in user's id (the Cognito `sub`, which is also the profile id), or null. */
export async function currentUserId(): Promise<string | null> {
  const stored = freshStoredSession();
  if (stored) return stored.userId;
  if (!mayBeSignedIn()) return null;
  try {
    return (await (await loadAmplify()).getCurrentUser()).userId;
  } catch {
    return null;
  }
}

/** Sign-in and sign-up start from a clean slate (spec 1 §4): a leftover session is signed out first. */
export async function clearStaleSession(): Promise<void> {
  if ((await currentUserId()) !== null) await (await loadAmplify()).signOut();
}
