import type { Page, ReviewView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** Reviews about a user, newest first (one page). */
export const fetchReviewsAbout = (api: ApiClient, userId: string) => api.get<Page<ReviewView>>(`/profiles/${encodeURIComponent(userId)}/reviews`);
