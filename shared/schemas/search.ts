import * as z from '../zod.js';
import { JOB_CATEGORIES } from '../categories.js';
import { MSG } from '../messages.js';
import { SEARCH_RADIUS_MILES } from '../search.js';

/**
 * POST /me/saved-searches (issue 46): the words and category of a search and its radius, around
 * the worker's saved location or, when they have none, the browser's (`latitude`, `longitude`).
 */
export const savedSearchSchema = z
  .strictObject({
    text: z._default(z.string().check(z.trim(), z.maxLength(100)), ''),
    category: z._default(z.nullable(z.enum(JOB_CATEGORIES)), null),
    radiusMiles: z.number().check(z.refine((miles) => (SEARCH_RADIUS_MILES as readonly number[]).includes(miles), MSG.search.radiusChoice)),
    latitude: z.optional(z.number().check(z.minimum(-90), z.maximum(90))),
    longitude: z.optional(z.number().check(z.minimum(-180), z.maximum(180))),
  })
  .check(z.refine((search) => (search.latitude === undefined) === (search.longitude === undefined), MSG.search.coordinatesTogether));
