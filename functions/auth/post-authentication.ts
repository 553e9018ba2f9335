import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import { clearAttempts } from '../lib/rate-limit.js';

/** A successful sign-in clears the email's failed attempts. */
export async function handler(event: PostAuthenticationTriggerEvent): Promise<PostAuthenticationTriggerEvent> {
  const email = (event.request.userAttributes.email ?? event.userName).trim().toLowerCase();
  await clearAttempts('signIn', email);
  return event;
}
