import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Dashboard, JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { fetchDashboard } from '../api/fetch-dashboard';
import { queryKeys, removeById } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';

/**
 * The caller's dashboard (GET /me/dashboard: one call, two indexed queries). Pushes about the
 * caller's jobs and reviews invalidate it (useLiveQuerySync), so it stays live without polling.
 */
export function useDashboard(): UseQueryResult<Dashboard> {
  const api = useApi();
  const toast = useToast();
  return useQuery({
    queryKey: queryKeys.dashboard,
    queryFn: async () => {
      try {
        return await fetchDashboard(api);
      } catch (error) {
        toast.error(MSG.dashboard.loadFailed);
        throw error;
      }
    },
  });
}

/** Puts what the caller's own calls answered into the cached dashboard; its private fields stay. */
export function useDashboardCache() {
  const queryClient = useQueryClient();
  const edit = (change: (dashboard: Dashboard) => Dashboard) =>
    queryClient.setQueryData<Dashboard>(queryKeys.dashboard, (dashboard) => dashboard && change(dashboard));
  return {
    update: (job: JobSummary) =>
      edit((dashboard) => ({ ...dashboard, jobs: dashboard.jobs.map((other) => (other.id === job.id ? { ...other, ...job } : other)) })),
    remove: (jobId: string) => edit((dashboard) => ({ ...dashboard, jobs: removeById(dashboard.jobs, jobId, (job) => job.id) ?? [] })),
    /** Reads it again: after a step that changes what only the server knows (a decline reason). */
    reload: () => queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
  };
}
