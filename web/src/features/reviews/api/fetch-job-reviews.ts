import type { ReviewView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** A job's reviews: the published ones, and a hidden one to its reviewer and to the admin. */
export const fetchJobReviews = (api: ApiClient, jobId: string) => api.get<{ items: ReviewView[] }>(`/jobs/${encodeURIComponent(jobId)}/reviews`);
