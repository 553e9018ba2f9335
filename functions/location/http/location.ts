import * as z from '../../../shared/zod.js';
import { MSG } from '../../../shared/messages.js';
import { coordinatesUpdateSchema, notificationPreferencesSchema, zipUpdateSchema } from '../../../shared/schemas/notifications.js';
import { toOwnProfile } from '../../people/profiles.js';
import { saveLocation, savePreferences } from '../worker-locations.js';
import { HttpError, badRequest } from '../../lib/errors.js';
import { GeocodingFailed, createGeocoder } from '../../lib/geocoder.js';
import { parseWith, routeGroup } from '../../lib/http.js';

const geocoder = createGeocoder();
const jsonObject = z.record(z.string(), z.unknown(), MSG.backend.invalidJson);

export const handler = routeGroup('location', {
  /** The browser's coordinates, or a zip code geocoded with ', USA' appended (spec 2 §5). */
  'PUT /me/location': async ({ caller, body }) => {
    const raw = body(jsonObject);
    if ('zip' in raw) {
      const { zip, timeZone } = parseWith(zipUpdateSchema, raw);
      const point = await geocoder.geocode({ city: zip, state: 'USA' }).catch((error: unknown) => {
        // The service, not the zip: worth trying again (spec 1 "External geocoding").
        throw error instanceof GeocodingFailed ? new HttpError(503, error.message) : error;
      });
      if (!point) throw badRequest(MSG.location.zipNotFound);
      return toOwnProfile(await saveLocation(caller.userId, { point, market: await geocoder.market(point), zip }, timeZone));
    }
    const { timeZone, ...point } = parseWith(coordinatesUpdateSchema, raw);
    return toOwnProfile(await saveLocation(caller.userId, { point, market: await geocoder.market(point) }, timeZone));
  },

  'PUT /me/notification-preferences': async ({ caller, body }) =>
    toOwnProfile(await savePreferences(caller.userId, body(notificationPreferencesSchema))),
});
