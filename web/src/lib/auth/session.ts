/**
 * The way to aws-amplify (auth/amplify.ts), which loads on first use: at start-up when this
 * browser keeps a session from an earlier visit, else when the visitor signs in or up. Until
 * then a visitor is known to be signed out without it.
 */
import type { RuntimeConfig } from '../../../../shared/runtime-config';
import type * as AmplifyModule from './amplify';

export type Amplify = typeof AmplifyModule;

let authConfig: RuntimeConfig | null = null;
let loading: Promise<Amplify> | null = null;
const onLoad = new Set<(amplify: Amplify) => void>();

/** Start-up, with /config.json: Amplify starts loading now only if a session is kept. */
export function configureAuth(config: RuntimeConfig): void {
  authConfig = config;
  if (hasStoredSession()) void loadAmplify();
}

const AMPLIFY_KEY_PREFIX = 'CognitoIdentityServiceProvider.';

/**
 * Whether Amplify may keep a session here, for any client: readable at start-up, before
 * /config.json names the app's client (hasStoredSession answers for it).
 */
export function mayKeepSession(): boolean {
  try {
    const storage = window.localStorage;
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      if (key?.startsWith(AMPLIFY_KEY_PREFIX) && key.endsWith('.LastAuthUser')) return true;
    }
  } catch {
    // no storage, no kept session
  }
  return false;
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
    const user = window.localStorage.getItem(`${prefix}.LastAuthUser`) ?? 'username';
    return window.localStorage.getItem(`${prefix}.${user}.accessToken`) !== null;
  } catch {
    return false; // no storage: nothing was kept
  }
}

/** Amplify is needed when it is running (it may hold the session in memory) or a session is kept. */
const mayBeSignedIn = () => loading !== null || hasStoredSession();

/** The signed-in user's Cognito ID token (refreshed by Amplify when due), or null. */
export async function currentIdToken(): Promise<string | null> {
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
