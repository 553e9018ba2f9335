import type { Application } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The caller's own application to the job; 404 when there is none. */
export const fetchOwnApplication = (api: ApiClient, jobId: string) => api.get<Application>(`/jobs/${encodeURIComponent(jobId)}/applications/mine`);
