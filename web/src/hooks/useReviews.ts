import { useState } from 'react';
import type { PublicProfile, Review } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import { apiErrorText } from '../api/client';
import { fetchPublicProfile, fetchReviewsAbout, submitReview } from '../api/endpoints';
import { useApi } from './useApi';
import { useApiQuery, type QueryResult } from './useApiQuery';
import { useToast } from './useToast';

/** A user's public profile with their current rating; `version` changes after a review, to read it again. */
export function useRatedProfile(userId: string | null, version: number): QueryResult<PublicProfile> {
  return useApiQuery(userId ? `rated-profile:${userId}:${version}` : null, (api) => fetchPublicProfile(api, userId ?? ''));
}

export interface JobReview {
  /** Undefined while loading; null while the reviewer has not reviewed the reviewee for this job. */
  review: Review | null | undefined;
  /** Submits the review (confirmed by a toast); resolves whether it went through. */
  submit(rating: number, comment: string): Promise<boolean>;
}

/**
 * The review `reviewerId` gives `revieweeId` for a paid job: the one already written (from the
 * reviewee's reviews, newest first) or none yet, and submitting it.
 */
export function useJobReview(jobId: string, reviewerId: string, revieweeId: string, onSubmitted: () => void): JobReview {
  const api = useApi();
  const toast = useToast();
  const [submitted, setSubmitted] = useState<Review | null>(null);
  const query = useApiQuery(`job-review:${jobId}:${reviewerId}:${revieweeId}`, async (client) => {
    try {
      const { items } = await fetchReviewsAbout(client, revieweeId);
      return items.find(({ review }) => review.jobId === jobId && review.reviewerId === reviewerId)?.review ?? null;
    } catch (error) {
      toast.error(MSG.reviews.loadFailed);
      throw error;
    }
  });
  const loaded = query.status === 'ready' ? query.data : query.status === 'failed' ? null : undefined;

  return {
    review: submitted?.jobId === jobId && submitted.revieweeId === revieweeId ? submitted : loaded,
    async submit(rating, comment) {
      try {
        setSubmitted(await submitReview(api, jobId, { rating, comment }));
        toast.success(MSG.reviews.submitted);
        onSubmitted();
        return true;
      } catch (error) {
        const reason = apiErrorText(error, '');
        if (reason === MSG.reviews.duplicate) {
          toast.error(reason);
          query.reload();
        } else {
          toast.error(reason ? MSG.reviews.submitFailedWith(reason) : MSG.reviews.submitFailed);
        }
        return false;
      }
    },
  };
}
