import type { Review } from '../../../../../shared/api';
import type { reviewSchema } from '../../../../../shared/schemas/review';
import type * as z from '../../../../../shared/zod';
import type { ApiClient } from '../../../lib/api/client';

/** A party of a paid job reviews the other party. */
export const submitReview = (api: ApiClient, jobId: string, request: z.input<typeof reviewSchema>) =>
  api.post<Review>(`/jobs/${encodeURIComponent(jobId)}/reviews`, request);
