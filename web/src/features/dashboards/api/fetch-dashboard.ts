import type { Dashboard } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The caller's dashboard in one call: their jobs (with the parties' fields), earnings, rating and reviews. */
export const fetchDashboard = (api: ApiClient) => api.get<Dashboard>('/me/dashboard');
