import type { Page, Review, ReviewView } from '../../../shared/api.js';
import { MSG } from '../../../shared/messages.js';
import { reviewSchema } from '../../../shared/schemas/review.js';
import { editReview, listJobReviews, listReviewsAbout, submitReview } from '../reviews.js';
import { forbidden } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('reviews', {
  /** A party of a paid job reviews the other party. */
  'POST /jobs/{id}/reviews': async (request) => {
    const input = request.body(reviewSchema);
    const review: Review = await submitReview(request.params.id ?? '', request.caller.userId, input);
    return { status: 201, body: review };
  },

  /**
   * Reviews are final except for the admin (spec 2 §4). A signed-in user reaches this route so
   * that they get the spec's text, not a bare permission error.
   */
  'PUT /jobs/{id}/reviews/{reviewerId}': async (request): Promise<Review> => {
    if (!request.caller.isAdmin) throw forbidden(MSG.reviews.cannotModify);
    const input = request.body(reviewSchema);
    return editReview(request.params.id ?? '', request.params.reviewerId ?? '', input, request.caller.userId);
  },

  /**
   * A job's reviews, one each way at most: the published ones as on the parties' profiles, and a
   * hidden one to its reviewer and to the admin (whose console edits them).
   */
  'GET /jobs/{id}/reviews': async ({ params, caller }): Promise<{ items: ReviewView[] }> => ({ items: await listJobReviews(params.id ?? '', caller) }),

  /** Reviews about a user, newest first, 50 a page. */
  'GET /profiles/{id}/reviews': async ({ params, query }): Promise<Page<ReviewView>> => listReviewsAbout(params.id ?? '', query.cursor),
});
