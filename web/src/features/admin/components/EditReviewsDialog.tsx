import { Button, Loader, SelectField, TextAreaField } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { JobSummary, ReviewView } from '../../../../../shared/api';
import { MAX_REVIEW_COMMENT, REVIEW_RATING } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useModalDialog } from '../../../lib/hooks/useModalDialog';
import { useToast } from '../../../lib/toast/useToast';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { editReview } from '../api/edit-review';
import { fetchJobReviews } from '../../reviews';

const RATINGS = Array.from({ length: REVIEW_RATING.max - REVIEW_RATING.min + 1 }, (_, i) => REVIEW_RATING.min + i);

/**
 * The admin edits the reviews of one job (spec 2 §6: reviews are final except for the admin):
 * each review's rating and comment, saved one at a time; the reviewee's rating follows.
 */
export function EditReviewsDialog({ job, onClose }: { job: JobSummary; onClose(): void }) {
  const api = useApi();
  const dialog = useModalDialog();
  const titleId = useId();
  const reviews = useQuery({ queryKey: ADMIN_QUERY.jobReviews(job.id), queryFn: () => fetchJobReviews(api, job.id) });

  return (
    <dialog
      ref={dialog}
      className="dialog dialog--wide"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>Reviews of "{job.title}"</h2>
      {reviews.isPending ? (
        <Loader variation="linear" ariaLabel="Loading reviews" />
      ) : reviews.isError ? (
        <p role="alert">{apiErrorText(reviews.error, MSG.reviews.loadFailed)}</p>
      ) : reviews.data.items.length === 0 ? (
        <p>Neither party has reviewed this job yet.</p>
      ) : (
        reviews.data.items.map((item) => <ReviewEditor key={item.review.id} jobId={job.id} item={item} />)
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

function ReviewEditor({ jobId, item }: { jobId: string; item: ReviewView }) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [rating, setRating] = useState(item.review.rating);
  const [comment, setComment] = useState(item.review.comment ?? '');
  const [saving, setSaving] = useState(false);
  const unchanged = rating === item.review.rating && comment.trim() === (item.review.comment ?? '');

  async function save() {
    setSaving(true);
    try {
      await editReview(api, jobId, item.review.reviewerId, { rating, comment });
      toast.success(MSG.reviews.updated);
      await queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.jobReviews(jobId) });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'actions'] });
    } catch (error) {
      toast.error(apiErrorText(error, MSG.reviews.submitFailed));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="admin-review"
      aria-label={`Review by ${item.reviewer?.name ?? 'a former user'}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <p className="admin-review__by">
        By {item.reviewer?.name ?? 'a former user'} on {new Date(item.review.createdAt).toLocaleDateString()}
        {item.review.publishedAt ? null : ' (hidden until the other side reviews or 7 days pass)'}
      </p>
      <SelectField label="Rating" size="small" value={String(rating)} onChange={(event) => setRating(Number(event.target.value))}>
        {RATINGS.map((stars) => (
          <option key={stars} value={stars}>
            {stars} {stars === 1 ? 'star' : 'stars'}
          </option>
        ))}
      </SelectField>
      <TextAreaField label="Comment" rows={3} maxLength={MAX_REVIEW_COMMENT} value={comment} onChange={(event) => setComment(event.target.value)} />
      <Button type="submit" size="small" variation="primary" isLoading={saving} loadingText="Saving..." isDisabled={unchanged}>
        Save review
      </Button>
    </form>
  );
}
