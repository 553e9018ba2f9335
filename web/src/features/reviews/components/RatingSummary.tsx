import { REVIEW_RATING } from '../../../../../shared/limits';
import { formatRating } from '../../../lib/format';

/** Stars for the floor of the rating out of 5, the average with one decimal (or 'No ratings yet') and the review count. */
export function RatingSummary({ rating, reviewCount }: { rating: number | null; reviewCount: number }) {
  if (rating === null) return <span className="rating">{formatRating(null)}</span>;
  const full = Math.floor(rating);
  return (
    <span className="rating">
      <span className="rating__stars" aria-hidden="true">
        {'★'.repeat(full)}
        {'☆'.repeat(REVIEW_RATING.max - full)}
      </span>{' '}
      <span className="rating__average">{formatRating(rating)}</span>
      <span className="visually-hidden"> out of {REVIEW_RATING.max}</span>{' '}
      <span className="rating__count">
        ({reviewCount} {reviewCount === 1 ? 'review' : 'reviews'})
      </span>
    </span>
  );
}
