import type { ApiClient } from '../../../lib/api/client';

/** The worker takes their waiting offer back (issue 45). */
export const withdrawOffer = (api: ApiClient, jobId: string) => api.delete<void>(`/jobs/${encodeURIComponent(jobId)}/applications/mine`);
