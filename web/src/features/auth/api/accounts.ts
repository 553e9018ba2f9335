/** Account life cycle calls against the Cognito user pool (sign-up, email verification, password reset). */
import { SIGN_UP_ROLE_METADATA, type Role } from '../../../../../shared/roles';
import { clearStaleSession, loadAmplify } from '../../../lib/auth/session';

/** The 6-digit codes Cognito mails for verification and password reset. */
export const CONFIRMATION_CODE_PATTERN = /^\d{6}$/;

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role: Role;
}

/** Creates the Cognito user; the pre-sign-up trigger enforces the rules again (one admin, required fields). */
export async function registerAccount({ name, email, password, role }: NewAccount): Promise<void> {
  await clearStaleSession();
  const { signUp } = await loadAmplify();
  await signUp({ username: email, password, options: { userAttributes: { email, name }, clientMetadata: { [SIGN_UP_ROLE_METADATA]: role } } });
}

export async function verifyEmail(email: string, code: string): Promise<void> {
  const { confirmSignUp } = await loadAmplify();
  await confirmSignUp({ username: email, confirmationCode: code });
}

export async function resendVerificationCode(email: string): Promise<void> {
  const { resendSignUpCode } = await loadAmplify();
  await resendSignUpCode({ username: email });
}

/** Mails a reset code to the address (the local stack's mailbox in development). */
export async function requestPasswordReset(email: string): Promise<void> {
  const { resetPassword } = await loadAmplify();
  await resetPassword({ username: email });
}

export async function completePasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  const { confirmResetPassword } = await loadAmplify();
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}
