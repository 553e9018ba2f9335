import type { TipAnswer } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The poster tips the worker of their paid job: paid, or the card step to confirm it on (then sent again). */
export const addTip = (api: ApiClient, jobId: string, amount: number) => api.post<TipAnswer>(`/jobs/${encodeURIComponent(jobId)}/tip`, { amount });
