import type { Application } from '../../../../../shared/api';
import type { ApplyRequest } from '../../../../../shared/schemas/application';
import type { ApiClient } from '../../../lib/api/client';

/** A worker applies to an open job: an optional message to the poster, and on a job open to offers their offer. */
export const applyToJob = (api: ApiClient, jobId: string, request: Partial<ApplyRequest>) =>
  api.post<Application>(`/jobs/${encodeURIComponent(jobId)}/applications`, request);
