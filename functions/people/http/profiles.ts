import * as z from '../../../shared/zod.js';
import { MSG } from '../../../shared/messages.js';
import { profileUpdateSchema, protectedFieldsIn } from '../../../shared/schemas/profile.js';
import { recordSecurityEvent } from '../../lib/admin-actions.js';
import { exportUserData } from '../data-export.js';
import { getProfile, toOwnProfile, toPublicProfile, updateProfile } from '../profiles.js';
import { badRequest, forbidden, notFound, tooManyRequests } from '../../lib/errors.js';
import { parseWith, routeGroup } from '../../lib/http.js';
import { deleteImages, verifyUploadedImage } from '../../lib/images.js';
import { countProfileUpdate } from '../../lib/rate-limit.js';

const jsonObject = z.record(z.string(), z.unknown(), MSG.backend.invalidJson);

export const handler = routeGroup('profiles', {
  'GET /me': async ({ caller }) => {
    const profile = await getProfile(caller.userId);
    if (!profile) throw notFound(MSG.auth.profileNotFound);
    return toOwnProfile(profile);
  },

  /** "Download my data": everything stored about the caller, as one JSON document. */
  'GET /me/export': async ({ caller }) => {
    const data = await exportUserData(caller.userId);
    if (!data) throw notFound(MSG.auth.profileNotFound);
    return data;
  },

  /**
   * Own profile update (spec 1 §5): protected fields are refused and reported, input is
   * validated and sanitised, and at most 3 updates per 5 minutes go through.
   */
  'PATCH /me': async (request) => {
    const { caller } = request;
    const body = request.body(jsonObject);
    const protectedFields = protectedFieldsIn(body);
    if (protectedFields.length) {
      await recordSecurityEvent('profile_security_violation', 'profile', caller.userId, { fields: protectedFields }, MSG.profile.securityValidationFailed);
      throw forbidden(MSG.profile.securityValidationFailed);
    }
    const changes = parseWith(profileUpdateSchema, body);
    if (Object.keys(changes).length === 0) throw badRequest(MSG.backend.requiredMissing);

    const { profileImage, ...fields } = changes;
    if (profileImage) await verifyUploadedImage(caller.userId, 'avatar', profileImage, 'The profile picture');

    const rate = await countProfileUpdate(caller.userId);
    if (!rate.allowed) throw tooManyRequests(MSG.profile.tooManyUpdates(rate.retryAfterSeconds), rate.retryAfterSeconds);

    const before = profileImage === undefined ? undefined : await getProfile(caller.userId);
    const updated = await updateProfile(caller.userId, profileImage === undefined ? fields : { ...fields, profileImageKey: profileImage });
    if (!updated) throw notFound(MSG.auth.profileNotFound);
    if (before?.profileImageKey && before.profileImageKey !== profileImage) await deleteImages([before.profileImageKey]);
    return toOwnProfile(updated);
  },

  /** Another user's public view: never their email or payment fields. */
  'GET /profiles/{id}': async ({ params }) => {
    const profile = await getProfile(params.id ?? '');
    if (!profile) throw notFound(MSG.auth.profileNotFound);
    return toPublicProfile(profile);
  },
});
