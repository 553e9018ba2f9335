import type { Application } from '../../../../../shared/api';
import type { CounterAnswer } from '../../../../../shared/schemas/application';
import type { ApiClient } from '../../../lib/api/client';

/** The worker accepts or declines the poster's counter-offer (issue 45). */
export const answerCounter = (api: ApiClient, jobId: string, answer: CounterAnswer) =>
  api.post<Application>(`/jobs/${encodeURIComponent(jobId)}/applications/mine/counter`, { answer });
