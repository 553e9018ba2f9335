import { z } from 'zod';
import { MAX_REVIEW_COMMENT, REVIEW_RATING } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

/** The body of POST /jobs/{id}/reviews and of the admin's PUT: a whole-star rating and a comment. */
export const reviewSchema = z.object({
  rating: z
    .number(MSG.reviews.ratingRequired)
    .int(MSG.reviews.ratingRequired)
    .min(REVIEW_RATING.min, MSG.reviews.ratingRequired)
    .max(REVIEW_RATING.max, MSG.reviews.ratingRequired),
  comment: freeText()
    .pipe(z.string().trim().max(MAX_REVIEW_COMMENT, MSG.reviews.commentTooLong))
    .nullish()
    // A blank comment is stored as none (the spec's "comment or null").
    .transform((comment) => comment || null),
});
export type ReviewRequest = z.output<typeof reviewSchema>;
