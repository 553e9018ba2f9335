import { useRatedProfile } from '../api/fetch-public-profile';
import { useReviewsAbout } from '../hooks/useReviews';
import { ReviewsCard } from './ReviewsCard';

/** The reviews about one user with their average and count, kept live (review pushes invalidate both). */
export function UserReviewsCard({ userId, heading, emptyText }: { userId: string; heading: string; emptyText: string }) {
  const profile = useRatedProfile(userId);
  const reviews = useReviewsAbout(userId);
  return (
    <ReviewsCard
      id="reviews-heading"
      heading={heading}
      rating={profile.data?.rating ?? null}
      reviewCount={profile.data?.reviewCount ?? 0}
      reviews={{ isPending: reviews.isPending, isError: reviews.isError, data: reviews.data?.items, refetch: reviews.refetch }}
      emptyText={emptyText}
    />
  );
}
