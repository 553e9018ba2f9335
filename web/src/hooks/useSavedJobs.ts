import type { JobSummary, SavedJob } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import { apiErrorText } from '../api/client';
import { fetchSavedJobs, saveJob, unsaveJob } from '../api/endpoints';
import { useApi } from './useApi';
import { useApiList, type ApiList } from './useApiList';
import { useAuth } from './useAuth';
import { useLiveUpdates } from './useLiveUpdates';
import { useToast } from './useToast';

export interface SavedJobs extends Omit<ApiList<SavedJob>, 'upsert' | 'remove'> {
  isSaved(jobId: string): boolean;
  save(job: JobSummary): Promise<void>;
  unsave(jobId: string): Promise<void>;
}

/**
 * The worker's saved jobs, newest first, with save and remove (each confirmed by a toast). The
 * saved copies follow the jobs' live changes; `enabled` false loads nothing (other roles).
 */
export function useSavedJobs(enabled: boolean): SavedJobs {
  const api = useApi();
  const toast = useToast();
  const { userId } = useAuth();
  const { upsert, remove, ...saved } = useApiList(
    enabled && userId ? `saved-jobs:${userId}` : null,
    async (client) => {
      try {
        return (await fetchSavedJobs(client)).items;
      } catch (error) {
        toast.error(MSG.savedJobs.loadFailed);
        throw error;
      }
    },
    (entry) => entry.job.id,
  );
  const entryFor = (jobId: string) => saved.items.find((entry) => entry.job.id === jobId);

  useLiveUpdates((message) => {
    if (message.type === 'job.removed' && entryFor(message.jobId)) remove(message.jobId);
    if (message.type === 'job.updated') {
      const entry = entryFor(message.job.id);
      if (entry) upsert({ ...entry, job: message.job });
    }
  });

  return {
    ...saved,
    isSaved: (jobId) => entryFor(jobId) !== undefined,
    async save(job) {
      try {
        await saveJob(api, job.id);
        upsert({ savedAt: new Date().toISOString(), job });
        toast.success(MSG.savedJobs.saved);
      } catch (error) {
        toast.error(apiErrorText(error, MSG.backend.unexpected));
      }
    },
    async unsave(jobId) {
      try {
        await unsaveJob(api, jobId);
        remove(jobId);
        toast.success(MSG.savedJobs.removed);
      } catch {
        toast.error(MSG.savedJobs.removeFailed);
      }
    },
  };
}
