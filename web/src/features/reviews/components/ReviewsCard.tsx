import { Link } from 'react-router-dom';
import type { ReviewView } from '../../../../../shared/api';
import { REVIEW_RATING } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { LoadingState } from '../../../lib/components/LoadingState';
import { RatingSummary } from './RatingSummary';

/** What a reviews list needs of a query: loading, failed (with a retry), or the reviews. */
export interface ReviewsSource {
  isPending: boolean;
  isError: boolean;
  data?: ReviewView[];
  refetch(): unknown;
}

interface ReviewsCardProps {
  /** The id of the card's heading; also the card's anchor. */
  id: string;
  heading: string;
  rating: number | null;
  reviewCount: number;
  reviews: ReviewsSource;
  /** What an empty list says, e.g. who has not been reviewed yet. */
  emptyText: string;
}

const reviewDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * Reviews about one user, newest first (spec 2 §2 "reviews panel", §9): the average with one
 * decimal (or 'No ratings yet') and the count, then each review's stars, comment, reviewer, job
 * and date.
 */
export function ReviewsCard({ id, heading, rating, reviewCount, reviews, emptyText }: ReviewsCardProps) {
  return (
    <section className="card reviews-card" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <p className="reviews-card__summary">
        <RatingSummary rating={rating} reviewCount={reviewCount} />
      </p>
      {reviews.isPending ? <LoadingState label="Loading reviews..." /> : null}
      {reviews.isError ? (
        <div className="button-row">
          <p className="muted">{MSG.reviews.loadFailed}</p>
          <button type="button" className="button button--secondary button--small" onClick={() => void reviews.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {reviews.data?.length === 0 ? <p className="muted">{emptyText}</p> : null}
      {reviews.data?.length ? (
        <ol className="review-list">
          {reviews.data.map((entry) => (
            <ReviewItem key={entry.review.id} entry={entry} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function ReviewItem({ entry: { review, reviewer, jobTitle } }: { entry: ReviewView }) {
  const stars = Math.floor(review.rating);
  return (
    <li className="review">
      <p className="review__rating">
        <span className="rating__stars" aria-hidden="true">
          {'★'.repeat(stars)}
          {'☆'.repeat(REVIEW_RATING.max - stars)}
        </span>{' '}
        <span>
          {review.rating} out of {REVIEW_RATING.max}
        </span>
      </p>
      {review.comment ? <blockquote className="review__comment preserve-lines">{review.comment}</blockquote> : null}
      <p className="review__meta">
        <span>
          By {reviewer ? <Link to={`/profiles/${encodeURIComponent(reviewer.id)}`}>{reviewer.name}</Link> : 'a former user'}
        </span>
        <span>
          for <Link to={`/jobs/${encodeURIComponent(review.jobId)}`}>{jobTitle}</Link>
        </span>
        <time dateTime={review.createdAt}>{reviewDate.format(Date.parse(review.createdAt))}</time>
      </p>
    </li>
  );
}
