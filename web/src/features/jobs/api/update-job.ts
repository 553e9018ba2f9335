import type { JobSummary } from '../../../../../shared/api';
import type { CreateJobRequest } from '../../../../../shared/schemas/job';
import type { ApiClient } from '../../../lib/api/client';

export const updateJob = (api: ApiClient, id: string, request: CreateJobRequest) =>
  api.put<JobSummary>(`/jobs/${encodeURIComponent(id)}`, request);
