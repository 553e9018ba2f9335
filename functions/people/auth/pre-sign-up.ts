import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { MSG } from '../../../shared/messages.js';
import { SIGN_UP_ROLE_METADATA, isRole } from '../../../shared/roles.js';
import { claimAdminSeat } from '../admin-seat.js';
import { keepSignUpRole } from '../sign-up-roles.js';
import { optionalEnv } from '../../lib/env.js';
import { countAttempt } from '../../lib/rate-limit.js';
import { withLogContext } from '../../lib/logger.js';

/**
 * Runs before Cognito creates a user, for sign-ups from the browser and direct API calls
 * alike (at most 5 attempts per 15 minutes per email). The role comes as client metadata and
 * is kept in the table for the post-confirmation trigger. A thrown message reaches the caller as "PreSignUp failed with error <message>.".
 */
async function handle(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  // AdminCreateUser: an IAM-authorized call (the deploy creating its admin), not a sign-up.
  if (event.triggerSource === 'PreSignUp_AdminCreateUser') return event;
  const attributes = event.request.userAttributes;
  const role = event.request.clientMetadata?.[SIGN_UP_ROLE_METADATA];
  const email = (attributes.email ?? '').trim().toLowerCase();
  if (!email || !attributes.name?.trim() || !role) throw new Error(MSG.auth.allFieldsRequired);
  if (!(await countAttempt('signUp', email)).allowed) throw new Error(MSG.auth.tooManySignUps);
  if (!isRole(role)) throw new Error(MSG.auth.invalidRole);
  if (role === 'admin') {
    // In AWS the deploy created the admin: the seat is never open to a sign-up.
    if (optionalEnv('adminSeatByDeploy') === 'true' || !(await claimAdminSeat(email))) throw new Error(MSG.auth.adminExists);
  }
  await keepSignUpRole(email, role);
  return event;
}

export const handler = withLogContext(handle);
