import type { ApiClient } from '../../../lib/api/client';

export const reviewFlags = (api: ApiClient, jobId: string, decision: 'approved' | 'removed', notes: string) =>
  api.post<{ decision: string }>(`/admin/flags/${encodeURIComponent(jobId)}/review`, { decision, notes });
