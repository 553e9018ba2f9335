import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { MSG } from '../../../shared/messages.js';
import { ADMIN_GROUP } from '../../../shared/roles.js';
import { sanitizeText } from '../../../shared/text.js';
import { confirmAdminSeat } from '../admin-seat.js';
import { createProfileOnce, newProfile } from '../profiles.js';
import { signUpRoleOf } from '../sign-up-roles.js';
import { logger, withLogContext } from '../../lib/logger.js';

const cognito = new CognitoIdentityProviderClient({});

/** Creates the profile, with the role the sign-up chose, when a user verifies their email; the admin also joins the admin group. */
async function handle(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  const attributes = event.request.userAttributes;
  const userId = attributes.sub;
  const email = (attributes.email ?? '').trim().toLowerCase();
  const role = await signUpRoleOf(email);
  if (!userId || !role) throw new Error(MSG.auth.invalidRole);

  if (role === 'admin') {
    if (!(await confirmAdminSeat(email, userId))) throw new Error(MSG.auth.adminExists);
    await cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: event.userPoolId, Username: event.userName, GroupName: ADMIN_GROUP }),
    );
  }
  const created = await createProfileOnce(
    newProfile({ id: userId, name: sanitizeText(attributes.name ?? '').trim(), email, role, now: new Date().toISOString() }),
  );
  logger.info('user confirmed', { userId, role, profileCreated: created });
  return event;
}

export const handler = withLogContext(handle);
