import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { FIRST_READ_PATHS } from '../../../lib/api/first-reads';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';

/** The caller's dashboard in one call: their jobs (with the parties' fields), earnings, rating and reviews. */
export const fetchDashboard = (api: ApiClient) => api.get<Dashboard>(FIRST_READ_PATHS.dashboard);

export const dashboardQueryOptions = (api: ApiClient) => queryOptions({ queryKey: queryKeys.dashboard, queryFn: () => fetchDashboard(api) });

/**
 * The caller's dashboard (GET /me/dashboard: one call, two indexed queries). Pushes about the
 * caller's jobs and reviews invalidate it (useLiveQuerySync), so it stays live without polling.
 * A failure is the screen's to show (DashboardFailed).
 */
export function useDashboard() {
  return useQuery(dashboardQueryOptions(useApi()));
}
