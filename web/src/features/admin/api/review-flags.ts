import type { ApiClient } from '../../../lib/api/client';

/** The admin's decision on a job's pending reports, or (with `questionId`) on the reports of one of its public questions. */
export const reviewFlags = (api: ApiClient, jobId: string, decision: 'approved' | 'removed', notes: string, questionId?: string) =>
  api.post<{ decision: string }>(`/admin/flags/${encodeURIComponent(jobId)}/review`, { decision, notes, ...(questionId ? { questionId } : {}) });
