import type { JobDetail } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchJob = (api: ApiClient, id: string) => api.get<JobDetail>(`/jobs/${encodeURIComponent(id)}`);
