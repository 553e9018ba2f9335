import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import { clearAttempts } from '../../lib/rate-limit.js';
import { withLogContext } from '../../lib/logger.js';

/** A successful sign-in clears the email's failed attempts. */
async function handle(event: PostAuthenticationTriggerEvent): Promise<PostAuthenticationTriggerEvent> {
  const email = (event.request.userAttributes.email ?? event.userName).trim().toLowerCase();
  await clearAttempts('signIn', email);
  return event;
}

export const handler = withLogContext(handle);
