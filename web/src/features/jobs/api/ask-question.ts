import type { JobQuestion } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** A worker's public question on an open job (issue 45). */
export const askQuestion = (api: ApiClient, jobId: string, text: string) => api.post<JobQuestion>(`/jobs/${encodeURIComponent(jobId)}/questions`, { text });
