import type { JobQuestion } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster's one public answer to a question on their job (issue 45). */
export const answerQuestion = (api: ApiClient, jobId: string, questionId: string, answer: string) =>
  api.post<JobQuestion>(`/jobs/${encodeURIComponent(jobId)}/questions/${encodeURIComponent(questionId)}/answer`, { answer });
