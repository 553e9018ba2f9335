import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { RATE_LIMITS } from '../../../shared/limits.js';
import { MSG } from '../../../shared/messages.js';
import { recordSecurityEvent } from '../../lib/admin-actions.js';
import { countAttempt } from '../../lib/rate-limit.js';
import { withLogContext } from '../../lib/logger.js';

/**
 * Runs before Cognito checks a password, for every sign-in flow and for direct API calls:
 * at most 5 attempts per 15 minutes per email (a successful sign-in clears the count, see
 * post-authentication). The attempt that crosses the limit raises a security alert.
 */
async function handle(event: PreAuthenticationTriggerEvent): Promise<PreAuthenticationTriggerEvent> {
  const email = (event.request.userAttributes.email ?? event.userName).trim().toLowerCase();
  const decision = await countAttempt('signIn', email);
  if (!decision.allowed) {
    if (decision.count === RATE_LIMITS.signIn.limit + 1) {
      await recordSecurityEvent('repeated_auth_failures', 'user', event.request.userAttributes.sub ?? email, { email }, MSG.auth.tooManySignIns);
    }
    throw new Error(MSG.auth.tooManySignIns);
  }
  return event;
}

export const handler = withLogContext(handle);
