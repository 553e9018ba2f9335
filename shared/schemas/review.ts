import * as z from '../zod.js';
import { MAX_REVIEW_COMMENT, REVIEW_RATING } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** The body of POST /jobs/{id}/reviews and of the admin's PUT: a whole-star rating and a comment. */
export const reviewSchema = z.object({
  rating: z.int(MSG.reviews.ratingRequired).check(z.minimum(REVIEW_RATING.min, MSG.reviews.ratingRequired), z.maximum(REVIEW_RATING.max, MSG.reviews.ratingRequired)),
  // A blank comment is stored as none (the spec's "comment or null").
  comment: z.pipe(z.nullish(freeText(z.maxLength(MAX_REVIEW_COMMENT, MSG.reviews.commentTooLong))), z.transform((comment) => comment || null)),
});
export type ReviewRequest = z.output<typeof reviewSchema>;
