import type { Page, PartyJob } from '../../../../../shared/api';
import type { JobStatus } from '../../../../../shared/job-process';
import type { ApiClient } from '../../../lib/api/client';

export const fetchAdminJobs = (api: ApiClient, status: JobStatus, cursor: string | null) => api.get<Page<PartyJob>>('/admin/jobs', { status, cursor });
