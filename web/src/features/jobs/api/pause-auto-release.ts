import type { PartyJob } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster stops a completed job's auto-release countdown, with a reason the worker sees. */
export const pauseAutoRelease = (api: ApiClient, jobId: string, reason: string) =>
  api.post<PartyJob>(`/jobs/${encodeURIComponent(jobId)}/auto-release/pause`, { reason });
