import { useQueryClient } from '@tanstack/react-query';
import type { Dashboard, JobSummary } from '../../../../../shared/api';
import { queryKeys, removeById } from '../../../lib/api/query-keys';

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
