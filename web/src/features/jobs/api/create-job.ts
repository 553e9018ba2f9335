import type { JobPaymentStart } from '../../../../../shared/api';
import type { CreateJobRequest } from '../../../../../shared/schemas/job';
import type { ApiClient } from '../../../lib/api/client';

/** Pay to post: the job is saved as a draft (only its poster sees it) until its payment succeeds. */
export const createJob = (api: ApiClient, request: CreateJobRequest) => api.post<JobPaymentStart>('/jobs', request);
