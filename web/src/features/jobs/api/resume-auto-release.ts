import type { PartyJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster starts a paused auto-release again (at least a day from now). */
export const resumeAutoRelease = (api: ApiClient, jobId: string) => api.post<PartyJob>(`/jobs/${encodeURIComponent(jobId)}/auto-release/resume`, {});
