import { ADMIN_GROUP } from '../shared/roles.js';
import { PASSWORD_MIN_LENGTH } from '../shared/schemas/auth.js';

/**
 * The user pool's settings, read by the CDK auth stack and by the local stack's cognito-local
 * set-up so both pools behave alike.
 */
export const USER_POOL_SETTINGS = {
  passwordMinLength: PASSWORD_MIN_LENGTH,
  /** Custom attributes (become `custom:<name>`); the role is chosen at sign-up. */
  customAttributes: { role: { maxLength: 16 } },
  groups: [ADMIN_GROUP],
  /**
   * The web client's flows in AWS: SRP, so the password never leaves the browser to sign in.
   * ADMIN_USER_PASSWORD_AUTH is for the server alone (it needs IAM): account deletion checks the
   * password the user re-enters (docs/decisions/0167-account-deletion-is-confirmed-by-the-password.md).
   */
  clientAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_ADMIN_USER_PASSWORD_AUTH'],
  /**
   * The email that carries a code (`{####}`): Cognito sends it to verify a new address and to
   * reset a password, so it names both; the local stack's mailbox gets the same text. A code, not
   * a link (docs/decisions/0314-email-verification-by-code.md).
   */
  verificationEmail: {
    subject: 'Your OddJobs verification code',
    body: 'Your OddJobs verification code is {####}. Enter it on OddJobs to verify your email address or to reset your password. If you did not ask for it, you can ignore this email.',
  },
  /** Local stack only: cognito-local supports no SRP, only USER_PASSWORD_AUTH. */
  localClientAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_ADMIN_USER_PASSWORD_AUTH'],
} as const;
