import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { OwnProfile } from '../../../../shared/api';
import { MSG } from '../../../../shared/messages';
import { isNotFound, type ApiClient } from '../api/client';
import { fetchOwnProfile } from './api/fetch-own-profile';
import { updateOwnProfile, type ProfileUpdateRequest } from './api/update-own-profile';
import { clearStaleSession, currentIdToken, currentUserId, hasStoredSession, loadAmplify, rememberRole, whenAmplifyLoaded } from './session';
import { useApi } from '../api/useApi';
import { useConfig } from '../useConfig';
import { useToast } from '../toast/useToast';

type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  /** `profile` is null when it could not be loaded (the session is still valid). */
  | { status: 'signedIn'; userId: string; profile: OwnProfile | null };

export type AuthStatus = AuthState['status'];

export type SignInOutcome =
  | { kind: 'signedIn'; profile: OwnProfile }
  | { kind: 'unconfirmed' }
  /**
   * The user was invited with a temporary password (the deploy's admin, AdminCreateUser): Cognito
   * asks for a new one before it signs them in; `completeNewPassword` answers it.
   */
  | { kind: 'newPasswordRequired' }
  /** Signed in to Cognito but no profile exists: the user was signed out again. */
  | { kind: 'profileMissing' }
  /** The profile could not be loaded: the user was signed out again. */
  | { kind: 'profileFailed' };

export interface Auth {
  status: AuthStatus;
  /** The Cognito `sub` (= profile id) while signed in. */
  userId: string | null;
  profile: OwnProfile | null;
  signIn(email: string, password: string): Promise<SignInOutcome>;
  /** Answers Cognito's new-password step that `signIn` reported, then finishes signing in. */
  completeNewPassword(newPassword: string): Promise<SignInOutcome>;
  /** `everywhere` also ends the sessions on the user's other devices (Cognito global sign-out). */
  signOut(options?: { everywhere?: boolean }): Promise<void>;
  /** Reloads the profile (after it changed on the server); null when signed out or unavailable. */
  refreshProfile(): Promise<OwnProfile | null>;
  /** PATCH /me; the app shows the saved profile at once. Rejects with the server's ApiRequestError. */
  updateProfile(changes: ProfileUpdateRequest): Promise<OwnProfile>;
}

const AuthContext = createContext<Auth | null>(null);

type ProfileLoad = { kind: 'loaded'; profile: OwnProfile } | { kind: 'missing' } | { kind: 'failed' };

async function loadProfile(api: ApiClient): Promise<ProfileLoad> {
  try {
    const profile = await fetchOwnProfile(api);
    rememberRole(profile.id, profile.role);
    return { kind: 'loaded', profile };
  } catch (error) {
    return isNotFound(error) ? { kind: 'missing' } : { kind: 'failed' };
  }
}

/** How restoring a kept session ended; `profileFailed` when the profile could not be loaded (the session is still valid). */
export interface RestoredSession {
  state: Exclude<AuthState, { status: 'loading' }>;
  profileFailed: boolean;
}

/**
 * Restores a session Amplify kept from an earlier visit: its user, then the profile (/me); null
 * when none is kept. Started at start-up (app/App.tsx startApp), before React first renders the
 * app, so /me is read beside the first screen's data rather than after that render.
 */
export function restoreKeptSession(api: ApiClient): Promise<RestoredSession> | null {
  if (!hasStoredSession()) return null;
  return (async (): Promise<RestoredSession> => {
    const userId = (await currentIdToken()) ? await currentUserId() : null;
    if (!userId) return { state: { status: 'signedOut' }, profileFailed: false };
    const load = await loadProfile(api);
    if (load.kind === 'missing') {
      await (await loadAmplify()).signOut();
      return { state: { status: 'signedOut' }, profileFailed: false };
    }
    return { state: { status: 'signedIn', userId, profile: load.kind === 'loaded' ? load.profile : null }, profileFailed: load.kind === 'failed' };
  })();
}

/**
 * Holds the session and the signed-in user's profile for the whole app; `restoring` is the kept
 * session's restore (restoreKeptSession), null when none was kept.
 */
export function AuthProvider({ restoring, children }: { restoring: Promise<RestoredSession> | null; children: ReactNode }) {
  const api = useApi();
  const toast = useToast();
  const { authFlowType } = useConfig();
  // A browser that keeps no session is signed out from the first paint, without loading Amplify.
  const [state, setState] = useState<AuthState>(() => (restoring ? { status: 'loading' } : { status: 'signedOut' }));

  useEffect(() => {
    if (!restoring) return;
    let active = true;
    void restoring.then(({ state: restored, profileFailed }) => {
      if (!active) return;
      if (profileFailed) toast.error(MSG.auth.failedToLoadProfile);
      // A transition: the kept session's arrival renders the whole signed-in screen at once (on a
      // dashboard, most of the first load's rendering), and React renders a transition in slices
      // that yield to input instead of one long task (issue 37).
      startTransition(() => setState(restored));
    });
    return () => {
      active = false;
    };
  }, [restoring, toast]);

  // Amplify signs out on its own when a session can no longer be refreshed (once it runs: before, no session is in use).
  useEffect(() => {
    let stopListening = () => {};
    const stopWaiting = whenAmplifyLoaded(({ Hub, signOut }) => {
      stopListening = Hub.listen('auth', ({ payload }) => {
        if (payload.event === 'signedOut') setState({ status: 'signedOut' });
        if (payload.event === 'tokenRefresh_failure') void signOut();
      });
    });
    return () => {
      stopWaiting();
      stopListening();
    };
  }, []);

  /** What follows Cognito's answer to a sign-in step: another step, or the signed-in user's profile. */
  const finishSignIn = useCallback(
    async (amplify: Awaited<ReturnType<typeof loadAmplify>>, result: { isSignedIn: boolean; nextStep: { signInStep: string } }): Promise<SignInOutcome> => {
      if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') return { kind: 'unconfirmed' };
      if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return { kind: 'newPasswordRequired' };
      const userId = result.isSignedIn ? await currentUserId() : null;
      if (!userId) throw new Error(MSG.auth.noUserData);
      const load = await loadProfile(api);
      if (load.kind !== 'loaded') {
        await amplify.signOut();
        return { kind: load.kind === 'missing' ? 'profileMissing' : 'profileFailed' };
      }
      setState({ status: 'signedIn', userId, profile: load.profile });
      return { kind: 'signedIn', profile: load.profile };
    },
    [api],
  );

  const signIn = useCallback(
    async (email: string, password: string): Promise<SignInOutcome> => {
      await clearStaleSession();
      const amplify = await loadAmplify();
      return finishSignIn(amplify, await amplify.signIn({ username: email, password, options: { authFlowType } }));
    },
    [authFlowType, finishSignIn],
  );

  const completeNewPassword = useCallback(
    async (newPassword: string): Promise<SignInOutcome> => {
      const amplify = await loadAmplify();
      return finishSignIn(amplify, await amplify.confirmSignIn({ challengeResponse: newPassword }));
    },
    [finishSignIn],
  );

  const signOut = useCallback(async (options?: { everywhere?: boolean }) => {
    try {
      await (await loadAmplify()).signOut({ global: options?.everywhere ?? false });
    } finally {
      setState({ status: 'signedOut' });
    }
  }, []);

  const refreshProfile = useCallback(async () => {
    const load = await loadProfile(api);
    const profile = load.kind === 'loaded' ? load.profile : null;
    setState((current) => (current.status === 'signedIn' ? { ...current, profile } : current));
    return profile;
  }, [api]);

  const updateProfile = useCallback(
    async (changes: ProfileUpdateRequest) => {
      const profile = await updateOwnProfile(api, changes);
      setState((current) => (current.status === 'signedIn' ? { ...current, profile } : current));
      return profile;
    },
    [api],
  );

  const auth = useMemo<Auth>(
    () => ({
      status: state.status,
      userId: state.status === 'signedIn' ? state.userId : null,
      profile: state.status === 'signedIn' ? state.profile : null,
      signIn,
      completeNewPassword,
      signOut,
      refreshProfile,
      updateProfile,
    }),
    [state, signIn, completeNewPassword, signOut, refreshProfile, updateProfile],
  );

  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthProvider');
  return auth;
}
