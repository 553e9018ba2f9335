import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { Page, Review, ReviewView } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { fetchJobReviews } from '../api/fetch-job-reviews';
import { fetchReviewsAbout } from '../api/fetch-reviews-about';
import { submitReview } from '../api/submit-review';
import { useApi } from '../../../lib/api/useApi';
import { queryKeys } from '../../../lib/api/query-keys';
import { useToast } from '../../../lib/toast/useToast';

export interface JobReview {
  /** Undefined while loading; null while the reviewer has not reviewed the reviewee for this job. */
  review: Review | null | undefined;
  /** Submits the review (confirmed by a toast); resolves whether it went through. */
  submit(rating: number, comment: string): Promise<boolean>;
}

/**
 * The review `reviewerId` gives `revieweeId` for a paid job: the one already written (from the
 * job's reviews, where the reviewer sees their own while it is hidden) or none yet, and
 * submitting it.
 */
export function useJobReview(jobId: string, reviewerId: string, revieweeId: string): JobReview {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [submitted, setSubmitted] = useState<Review | null>(null);
  const reviews = useQuery({ queryKey: queryKeys.jobReviews(jobId), queryFn: () => fetchJobReviews(api, jobId) });
  const loaded = reviews.isError
    ? null
    : reviews.data && (reviews.data.items.find(({ review }) => review.reviewerId === reviewerId)?.review ?? null);
  // The reviewee's rating and reviews may have changed (both reviews publish together): read
  // them again wherever they are shown (the job page shows the poster's rating with the job).
  const refreshReviewee = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.profile(revieweeId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.job(jobId) }),
    ]);

  return {
    review: submitted?.jobId === jobId && submitted.revieweeId === revieweeId ? submitted : loaded,
    async submit(rating, comment) {
      try {
        setSubmitted(await submitReview(api, jobId, { rating, comment }));
        toast.success(MSG.reviews.submitted);
        void refreshReviewee();
        return true;
      } catch (error) {
        const reason = apiErrorText(error, '');
        if (reason === MSG.reviews.duplicate) {
          toast.error(reason);
          void refreshReviewee();
        } else {
          toast.error(reason ? MSG.reviews.submitFailedWith(reason) : MSG.reviews.submitFailed);
        }
        return false;
      }
    },
  };
}

/** The reviews about a user, newest first (one page of 50), with the spec's toast when they cannot load. */
export function useReviewsAbout(userId: string | null): UseQueryResult<Page<ReviewView>> {
  const api = useApi();
  const toast = useToast();
  return useQuery({
    queryKey: queryKeys.reviewsAbout(userId ?? ''),
    queryFn: async () => {
      try {
        return await fetchReviewsAbout(api, userId ?? '');
      } catch (error) {
        toast.error(MSG.reviews.loadFailed);
        throw error;
      }
    },
    enabled: userId !== null,
  });
}
