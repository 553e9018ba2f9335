import { fetchAuthSession, getCurrentUser, signOut } from 'aws-amplify/auth';

/** The signed-in user's Cognito ID token (refreshed by Amplify when due), or null. */
export async function currentIdToken(): Promise<string | null> {
  try {
    const session = await fetchAuthSession();
    return session.tokens?.idToken?.toString() ?? null;
  } catch {
    return null;
  }
}

/** The signed-in user's id (the Cognito `sub`, which is also the profile id), or null. */
export async function currentUserId(): Promise<string | null> {
  try {
    return (await getCurrentUser()).userId;
  } catch {
    return null;
  }
}

/** Sign-in and sign-up start from a clean slate (spec 1 §4): a leftover session is signed out first. */
export async function clearStaleSession(): Promise<void> {
  if ((await currentUserId()) !== null) await signOut();
}
