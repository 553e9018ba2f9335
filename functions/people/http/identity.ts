import { MSG } from '../../../shared/messages.js';
import { notFound } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';
import { startIdentityCheck } from '../identity.js';
import { getProfile } from '../profiles.js';

export const handler = routeGroup('identity', {
  /** "Verify my identity": the Stripe Identity session to open the verification modal with (its result comes by webhook). */
  'POST /me/identity-check': async ({ caller }) => {
    const profile = await getProfile(caller.userId);
    if (!profile) throw notFound(MSG.auth.profileNotFound);
    return startIdentityCheck(profile);
  },
});
