import type { ApiClient } from '../../../lib/api/client';

export const deleteJob = (api: ApiClient, id: string) => api.delete<void>(`/jobs/${encodeURIComponent(id)}`);
