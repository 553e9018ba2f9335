import type { Earnings } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** 'My Earnings': the worker's paid jobs, their total and the payment account. */
export const fetchEarnings = (api: ApiClient) => api.get<Earnings>('/me/earnings');
