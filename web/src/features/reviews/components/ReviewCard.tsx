import { useId, useState, type FormEvent } from 'react';
import type { Review } from '../../../../../shared/api';
import { MAX_REVIEW_COMMENT, REVIEW_RATING } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { useJobReview, type JobReview } from '../hooks/useReviews';
import { FormField } from '../../../lib/components/FormField';

interface ReviewCardProps {
  jobId: string;
  reviewerId: string;
  revieweeId: string;
  revieweeName: string;
}

/** After payment: the review of the other party, or the review already given. */
export function ReviewCard({ jobId, reviewerId, revieweeId, revieweeName }: ReviewCardProps) {
  const jobReview = useJobReview(jobId, reviewerId, revieweeId);
  return (
    <section className="card" aria-labelledby="review-heading">
      <h2 id="review-heading">Review {revieweeName}</h2>
      {jobReview.review === undefined ? <p className="muted">Loading...</p> : null}
      {jobReview.review ? <GivenReview review={jobReview.review} /> : null}
      {jobReview.review === null ? <ReviewForm jobReview={jobReview} /> : null}
    </section>
  );
}

const STARS = Array.from({ length: REVIEW_RATING.max - REVIEW_RATING.min + 1 }, (_, index) => REVIEW_RATING.min + index);
const starLabel = (stars: number) => `${stars} ${stars === 1 ? 'star' : 'stars'}`;

function GivenReview({ review }: { review: Review }) {
  return (
    <div role="status">
      <p>
        You rated <strong>{starLabel(review.rating)}</strong>
        <span aria-hidden="true"> {'★'.repeat(review.rating)}</span>. Thank you for your review.
      </p>
      {review.comment ? <blockquote className="preserve-lines">{review.comment}</blockquote> : null}
      {review.publishedAt ? null : <p className="muted">{MSG.reviews.hiddenUntilBoth}</p>}
    </div>
  );
}

function ReviewForm({ jobReview }: { jobReview: JobReview }) {
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ratingErrorId = useId();
  const blindNoticeId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (rating === null) {
      setError(MSG.reviews.ratingRequired);
      return;
    }
    setBusy(true);
    await jobReview.submit(rating, comment);
    setBusy(false);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={blindNoticeId}>
      <p id={blindNoticeId} className="muted">
        {MSG.reviews.hiddenUntilBoth}
      </p>
      <fieldset className="star-rating" aria-describedby={error ? ratingErrorId : undefined}>
        <legend className="field__label">Rating</legend>
        {STARS.map((stars) => (
          <label key={stars} className="star-rating__option">
            <input
              type="radio"
              name="rating"
              value={stars}
              checked={rating === stars}
              onChange={() => {
                setRating(stars);
                setError(null);
              }}
            />
            <span aria-hidden="true" className={rating !== null && stars <= rating ? 'star-rating__star star-rating__star--on' : 'star-rating__star'}>
              ★
            </span>
            <span className="visually-hidden">{starLabel(stars)}</span>
          </label>
        ))}
        {error ? (
          <p id={ratingErrorId} className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
      <FormField label="Comment (optional)" hint={`${comment.length}/${MAX_REVIEW_COMMENT}`}>
        {(control) => (
          <textarea {...control} rows={3} maxLength={MAX_REVIEW_COMMENT} value={comment} onChange={(event) => setComment(event.target.value)} />
        )}
      </FormField>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Submitting...' : 'Submit Review'}
      </button>
    </form>
  );
}
