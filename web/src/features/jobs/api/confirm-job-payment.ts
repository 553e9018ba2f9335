import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** After the card step: opens the paid draft (409 while the payment has not succeeded). */
export const confirmJobPayment = (api: ApiClient, paymentIntentId: string) => api.post<JobSummary>('/payments/confirm', { paymentIntentId });
