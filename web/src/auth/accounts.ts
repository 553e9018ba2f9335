/** Account life cycle calls against the Cognito user pool (sign-up and email verification). */
import { confirmSignUp, resendSignUpCode, signUp } from 'aws-amplify/auth';
import type { Role } from '../../../shared/roles';
import { clearStaleSession } from './session';

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role: Role;
}

/** Creates the Cognito user; the pre-sign-up trigger enforces the rules again (one admin, required fields). */
export async function registerAccount({ name, email, password, role }: NewAccount): Promise<void> {
  await clearStaleSession();
  await signUp({ username: email, password, options: { userAttributes: { email, name, 'custom:role': role } } });
}

export async function verifyEmail(email: string, code: string): Promise<void> {
  await confirmSignUp({ username: email, confirmationCode: code });
}

export async function resendVerificationCode(email: string): Promise<void> {
  await resendSignUpCode({ username: email });
}
