import type { JobSummary } from '../../../shared/api';
import { fetchOwnJobs } from '../api/endpoints';
import { useApiList, type ApiList } from './useApiList';
import { useAuth } from './useAuth';
import { useLiveReconnect, useLiveUpdates } from './useLiveUpdates';

/** The signed-in user's jobs (a poster's posted ones, a worker's assigned ones), newest first, kept in sync with the server's pushes. */
export function useOwnJobs(): ApiList<JobSummary> {
  const { userId } = useAuth();
  const jobs = useApiList(
    userId ? `own-jobs:${userId}` : null,
    // Newest first, as the API lists them: posted jobs for a poster, assigned ones for a worker.
    async (api) => (await fetchOwnJobs(api)).items,
    (job) => job.id,
  );

  useLiveUpdates((message) => {
    if (message.type === 'job.removed' && jobs.items.some((job) => job.id === message.jobId)) jobs.remove(message.jobId);
    const isOwn = (job: JobSummary) => job.posterId === userId || job.workerId === userId;
    if ((message.type === 'job.posted' || message.type === 'job.updated') && isOwn(message.job)) jobs.upsert(message.job);
  });
  // Pushes sent while the socket was down are lost.
  useLiveReconnect(jobs.reload);

  return jobs;
}
