import type { JobSummary } from '../../../shared/api';
import { fetchOwnJobs } from '../api/endpoints';
import { useApiList, type ApiList } from './useApiList';
import { useAuth } from './useAuth';
import { useLiveReconnect, useLiveUpdates } from './useLiveUpdates';

/** The signed-in poster's jobs, every status, newest first, kept in sync with the server's pushes. */
export function useOwnJobs(): ApiList<JobSummary> {
  const { userId } = useAuth();
  const jobs = useApiList(
    userId ? `own-jobs:${userId}` : null,
    // The API lists them in no promised order; the dashboard shows the newest first.
    async (api) => (await fetchOwnJobs(api)).items.sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    (job) => job.id,
  );

  useLiveUpdates((message) => {
    if (message.type === 'job.removed' && jobs.items.some((job) => job.id === message.jobId)) jobs.remove(message.jobId);
    if ((message.type === 'job.posted' || message.type === 'job.updated') && message.job.posterId === userId) jobs.upsert(message.job);
  });
  // Pushes sent while the socket was down are lost.
  useLiveReconnect(jobs.reload);

  return jobs;
}
