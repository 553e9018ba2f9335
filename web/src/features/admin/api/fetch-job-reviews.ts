import type { ReviewView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchJobReviews = (api: ApiClient, jobId: string) => api.get<{ items: ReviewView[] }>(`/jobs/${encodeURIComponent(jobId)}/reviews`);
