import { MSG } from '../../shared/messages.js';
import { getProfile, toOwnProfile, toPublicProfile } from '../domain/profiles.js';
import { notFound } from '../lib/errors.js';
import { routeGroup } from '../lib/http.js';

export const handler = routeGroup('profiles', {
  'GET /me': async ({ caller }) => {
    const profile = await getProfile(caller.userId);
    if (!profile) throw notFound(MSG.auth.profileNotFound);
    return toOwnProfile(profile);
  },

  /** Another user's public view: never their email or payment fields. */
  'GET /profiles/{id}': async ({ params }) => {
    const profile = await getProfile(params.id ?? '');
    if (!profile) throw notFound(MSG.auth.profileNotFound);
    return toPublicProfile(profile);
  },
});
