import type { Application } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** A worker applies to an open job, with an optional message to the poster. */
export const applyToJob = (api: ApiClient, jobId: string, message: string) => api.post<Application>(`/jobs/${encodeURIComponent(jobId)}/applications`, { message });
