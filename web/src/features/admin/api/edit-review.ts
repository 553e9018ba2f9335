import type { Review } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const editReview = (api: ApiClient, jobId: string, reviewerId: string, review: { rating: number; comment: string }) =>
  api.put<Review>(`/jobs/${encodeURIComponent(jobId)}/reviews/${encodeURIComponent(reviewerId)}`, review);
