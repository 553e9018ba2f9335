import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { MSG } from '../../shared/messages.js';
import { isRole } from '../../shared/roles.js';
import { claimAdminSeat } from '../domain/admin-seat.js';
import { optionalEnv } from '../lib/env.js';
import { countAttempt } from '../lib/rate-limit.js';

/**
 * Runs before Cognito creates a user, for sign-ups from the browser and direct API calls
 * alike (at most 5 attempts per 15 minutes per email). A thrown message reaches the caller as "PreSignUp failed with error <message>.".
 */
export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  // AdminCreateUser: an IAM-authorized call (the deploy creating its admin), not a sign-up.
  if (event.triggerSource === 'PreSignUp_AdminCreateUser') return event;
  const attributes = event.request.userAttributes;
  const role = attributes['custom:role'];
  const email = (attributes.email ?? '').trim().toLowerCase();
  if (!email || !attributes.name?.trim() || !role) throw new Error(MSG.auth.allFieldsRequired);
  if (!(await countAttempt('signUp', email)).allowed) throw new Error(MSG.auth.tooManySignUps);
  if (!isRole(role)) throw new Error(MSG.auth.invalidRole);
  if (role === 'admin') {
    // In AWS the deploy created the admin: the seat is never open to a sign-up.
    if (optionalEnv('adminSeatByDeploy') === 'true' || !(await claimAdminSeat(email))) throw new Error(MSG.auth.adminExists);
  }
  return event;
}
