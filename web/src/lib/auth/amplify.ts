/**
 * Everything the app uses of aws-amplify, in one chunk that loads on first use (auth/session.ts
 * loads it): a first visit that never signs in downloads none of it.
 */
import { Amplify } from 'aws-amplify';
import type { RuntimeConfig } from '../../../../shared/runtime-config';

export { confirmResetPassword, confirmSignIn, confirmSignUp, fetchAuthSession, getCurrentUser, resendSignUpCode, resetPassword, signIn, signOut, signUp } from 'aws-amplify/auth';
export { Hub } from 'aws-amplify/utils';

export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
}
