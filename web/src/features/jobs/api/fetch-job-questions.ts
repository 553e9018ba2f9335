import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobQuestion } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** A job's public questions and the poster's answers, newest first (issue 45). */
export const fetchJobQuestions = (api: ApiClient, jobId: string) => api.get<{ items: JobQuestion[] }>(`/jobs/${encodeURIComponent(jobId)}/questions`);

export const jobQuestionsQueryOptions = (api: ApiClient, jobId: string) =>
  queryOptions({ queryKey: queryKeys.jobQuestions(jobId), queryFn: async () => (await fetchJobQuestions(api, jobId)).items });

/** The job page's questions; read again with the job's live changes (its `['job', id]` prefix). */
export function useJobQuestions(jobId: string) {
  const api = useApi();
  return useQuery(jobQuestionsQueryOptions(api, jobId));
}
