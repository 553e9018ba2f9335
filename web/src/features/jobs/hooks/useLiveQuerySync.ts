import { useQueryClient } from '@tanstack/react-query';
import type { Dashboard, JobSummary, SavedJob } from '../../../../../shared/api';
import { queryKeys, removeById } from '../../../lib/api/query-keys';
import { useAuth } from '../../../lib/auth/useAuth';
import { jobIdOf } from '../api/fetch-own-jobs';
import { savedJobIdOf } from './useSavedJobs';
import { isOlderThanHeld, upsertNewerJob } from '../../../lib/live/job-ordering';
import { useLiveReconnect, useLiveTopics, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { OWN_JOBS_TOPIC } from '../../../../../shared/live';

/**
 * The one place where the server's pushes meet the query cache (mounted once, in App): cached
 * lists that hold a pushed job are patched with it, and queries whose answer it changes are
 * invalidated (read again if on screen, else when next shown). A signed-in user's own jobs
 * come live wherever they are shown. After a lost connection the server sends the job changes
 * missed meanwhile (a catch-up), so the jobs and own jobs are not read again; the other
 * pushes sent meanwhile are gone, so the rest is (everything when the catch-up failed).
 */
/** The queries a catch-up keeps current: a job's own (its page subscribes to it) and the caller's own jobs. */
const CAUGHT_UP: ReadonlySet<unknown> = new Set([queryKeys.job('')[0], queryKeys.ownJobs[0]]);

export function useLiveQuerySync(): void {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  useLiveTopics(userId ? [OWN_JOBS_TOPIC] : []);

  useLiveUpdates((message) => {
    if (message.type === 'notification') {
      const { jobId } = message.notification;
      if (!jobId) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      // A job that just stopped being the caller's (an unassign) leaves their own-jobs topic
      // with that change; its notification tells the dashboard.
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
      return;
    }
    if (message.type === 'review.saved') {
      // Their rating, their reviews list and (for the caller) the dashboard's reviews panel.
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile(message.review.revieweeId) });
      if (message.review.revieweeId === userId) void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
      return;
    }
    if (message.type !== 'job.posted' && message.type !== 'job.updated' && message.type !== 'job.removed') return;
    const jobId = message.type === 'job.removed' ? message.jobId : message.job.id;
    const isOwn = message.type !== 'job.removed' && (message.job.posterId === userId || message.job.workerId === userId);
    // The dashboard also holds what pushes leave out (a decline reason): read it again whenever a
    // job of the caller changed, including one that just stopped being theirs (an unassign).
    const onDashboard = queryClient.getQueryData<Dashboard>(queryKeys.dashboard)?.jobs.some((job) => job.id === jobId) ?? false;
    if (isOwn || onDashboard) void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });

    if (message.type === 'job.removed') {
      queryClient.setQueryData<JobSummary[]>(queryKeys.ownJobs, (jobs) => removeById(jobs, jobId, jobIdOf));
      queryClient.setQueryData<SavedJob[]>(queryKeys.savedJobs, (saved) => removeById(saved, jobId, savedJobIdOf));
    } else {
      const { job } = message;
      // Pushes may arrive out of order: one older than the job held leaves it as it is.
      if (isOwn) queryClient.setQueryData<JobSummary[]>(queryKeys.ownJobs, (jobs) => upsertNewerJob(jobs, job));
      queryClient.setQueryData<SavedJob[]>(queryKeys.savedJobs, (saved) =>
        saved?.map((entry) => (entry.job.id === jobId && !isOlderThanHeld(job, entry.job) ? { ...entry, job } : entry)),
      );
      if (message.type === 'job.updated') void queryClient.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    }
  });

  useLiveReconnect((caughtUp) => {
    void queryClient.invalidateQueries(caughtUp ? { predicate: (query) => !CAUGHT_UP.has(query.queryKey[0]) } : undefined);
  });
}
