import type { JobSummary, Page } from '../../../../../shared/api';
import type { JobStatus } from '../../../../../shared/job-process';
import type { ApiClient } from '../../../lib/api/client';

export const fetchAdminJobs = (api: ApiClient, status: JobStatus, cursor: string | null) => api.get<Page<JobSummary>>('/admin/jobs', { status, cursor });
