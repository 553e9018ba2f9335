/**
 * Turns Cognito's errors (as Amplify throws them) into the spec's texts. Cognito names its
 * failures by exception name; the spec's sign-in table matches substrings of a backend message,
 * so the names are first translated to those substrings.
 */
import { MSG, signInErrorText } from '../../../../shared/messages';

interface NamedError {
  name: string;
  message: string;
}

function asNamedError(error: unknown): NamedError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: '', message: String(error) };
}

// Amplify reports a failed fetch as NetworkError; a bare TypeError is fetch failing outside it.
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || asNamedError(error).name === 'NetworkError';
}

// Our Cognito triggers' messages arrive as "PreSignUp failed with error <text>." (Cognito adds the final dot).
const TRIGGER_ERROR = /failed with error ([\s\S]+)\.$/;

// A trigger that crashed would surface its internal error the same way: show only the catalogue's texts.
const TRIGGER_TEXTS: ReadonlySet<string> = new Set(Object.values(MSG.auth));

/** The spec text one of our Cognito triggers refused with (e.g. the one-admin rule), if any. */
export function triggerErrorText(error: unknown): string | null {
  const text = TRIGGER_ERROR.exec(asNamedError(error).message)?.[1]?.trim();
  return text && TRIGGER_TEXTS.has(text) ? text : null;
}

const SIGN_IN_FAILURE_SUBSTRING: Record<string, string> = {
  NotAuthorizedException: 'invalid login credentials',
  UserNotConfirmedException: 'email not confirmed',
  UserNotFoundException: 'user not found',
  LimitExceededException: 'too many requests',
  TooManyRequestsException: 'too many requests',
  TooManyFailedAttemptsException: 'too many requests',
};

export function isUnconfirmedUser(error: unknown): boolean {
  return asNamedError(error).name === 'UserNotConfirmedException';
}

export function signInFailureText(error: unknown): string {
  const trigger = triggerErrorText(error);
  if (trigger) return trigger;
  if (isNetworkFailure(error)) return signInErrorText('network');
  const { name, message } = asNamedError(error);
  // Cognito answers a locked-out user with NotAuthorizedException "Password attempts exceeded".
  if (name === 'NotAuthorizedException' && /attempts exceeded/i.test(message)) return signInErrorText('too many requests');
  // A user the admin suspended is disabled in Cognito: "User is disabled.".
  if (name === 'NotAuthorizedException' && /user is disabled/i.test(message)) return MSG.auth.accountSuspended;
  return signInErrorText(SIGN_IN_FAILURE_SUBSTRING[name] ?? message);
}

export function signUpFailureText(error: unknown): string {
  const trigger = triggerErrorText(error);
  if (trigger) return trigger;
  if (isNetworkFailure(error)) return signInErrorText('network');
  switch (asNamedError(error).name) {
    case 'UsernameExistsException':
      return MSG.backend.conflict;
    case 'InvalidPasswordException':
      return signInErrorText('weak password');
    case 'TooManyRequestsException':
    case 'LimitExceededException':
      return MSG.auth.tooManySignUps;
    default:
      return MSG.auth.failedToCreateAccount;
  }
}

export function confirmSignUpFailureText(error: unknown): string {
  if (isNetworkFailure(error)) return signInErrorText('network');
  const { name, message } = asNamedError(error);
  if (name === 'CodeMismatchException' || name === 'ExpiredCodeException') return MSG.verify.invalidCode;
  return message || MSG.backend.unexpected;
}

export function resendCodeFailureText(error: unknown): string {
  if (isNetworkFailure(error)) return signInErrorText('network');
  return asNamedError(error).message || MSG.verify.resendFailed;
}

/** Requesting or completing a password reset. */
export function passwordResetFailureText(error: unknown): string {
  if (isNetworkFailure(error)) return signInErrorText('network');
  switch (asNamedError(error).name) {
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
      return MSG.verify.invalidCode;
    case 'UserNotFoundException':
      return signInErrorText('user not found');
    case 'InvalidPasswordException':
      return signInErrorText('weak password');
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return signInErrorText('rate limit');
    default:
      return MSG.passwordReset.failed;
  }
}

/** Answering Cognito's new-password step (a first sign-in with a temporary password). */
export function newPasswordFailureText(error: unknown): string {
  if (isNetworkFailure(error)) return signInErrorText('network');
  switch (asNamedError(error).name) {
    case 'InvalidPasswordException':
      return signInErrorText('weak password');
    // The step's session lasts minutes; after that Cognito refuses it and a new sign-in is needed.
    case 'NotAuthorizedException':
    case 'ExpiredCodeException':
      return MSG.auth.newPasswordSessionExpired;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
      return signInErrorText('too many requests');
    default:
      return MSG.auth.failedToSignIn;
  }
}
