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
  /** Local stack only: cognito-local supports no SRP, only USER_PASSWORD_AUTH. */
  localClientAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_ADMIN_USER_PASSWORD_AUTH'],
} as const;
