import type { ApplicationsOfJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster's Applications tab: applicants newest first, with the counts. */
export const fetchApplicationsOfJob = (api: ApiClient, jobId: string) => api.get<ApplicationsOfJob>(`/jobs/${encodeURIComponent(jobId)}/applications`);
