import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { JobSummary, SavedJob } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { savedJobsQueryOptions } from '../api/fetch-saved-jobs';
import { saveJob } from '../api/save-job';
import { unsaveJob } from '../api/unsave-job';
import { queryKeys, removeById, upsertById } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';

export const savedJobIdOf = (entry: SavedJob) => entry.job.id;

export interface SavedJobs {
  query: UseQueryResult<SavedJob[]>;
  isSaved(jobId: string): boolean;
  save(job: JobSummary): Promise<void>;
  unsave(jobId: string): Promise<void>;
}

/**
 * The worker's saved jobs, newest first, with save and remove (each confirmed by a toast). The
 * saved copies follow the jobs' live changes (useLiveQuerySync); `enabled` false loads nothing
 * (other roles). A failed read is SavedJobsCard's to show.
 */
export function useSavedJobs(enabled: boolean): SavedJobs {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  const query = useQuery({ ...savedJobsQueryOptions(api), enabled: enabled && userId !== null });
  const edit = (change: (items: SavedJob[] | undefined) => SavedJob[] | undefined) => queryClient.setQueryData<SavedJob[]>(queryKeys.savedJobs, change);

  return {
    query,
    isSaved: (jobId) => query.data?.some((entry) => entry.job.id === jobId) ?? false,
    async save(job) {
      try {
        await saveJob(api, job.id);
        edit((items) => upsertById(items, { savedAt: new Date().toISOString(), job }, savedJobIdOf));
        toast.success(MSG.savedJobs.saved);
      } catch (error) {
        toast.error(apiErrorText(error, MSG.backend.unexpected));
      }
    },
    async unsave(jobId) {
      try {
        await unsaveJob(api, jobId);
        edit((items) => removeById(items, jobId, savedJobIdOf));
        toast.success(MSG.savedJobs.removed);
      } catch {
        toast.error(MSG.savedJobs.removeFailed);
      }
    },
  };
}
