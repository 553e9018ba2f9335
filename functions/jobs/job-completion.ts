import { canPerform } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { conflict, notFound } from '../lib/errors.js';
import { optionalEnv } from '../lib/env.js';
import { retryWhileStale, transactWrite } from '../lib/transactions.js';
import { jobOfPoster, jobTransition, type JobChangeResult } from './job-transitions.js';
import { getJob } from './jobs.js';
import { AUTO_RELEASE, JOB_EVENT } from '../routes.js';
import { jobEvent } from './job-events.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';

/** The delay from completion to release: AUTO_RELEASE_SECONDS when set (local stack, tests), else the deploy's hours. */
export function autoReleaseDelaySeconds(): number {
  const seconds = Number(optionalEnv('autoReleaseSeconds'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : AUTO_RELEASE.defaultHours * 3600;
}

/** When a job completed now is released. */
const autoReleaseTime = () => new Date(Date.now() + autoReleaseDelaySeconds() * 1000).toISOString();

/**
 * The assigned worker marks the job done (`assigned -> completed`, spec 2 §4), and the poster
 * is told to review and release payment, in one transaction. Anyone else, and any other
 * status, gets the spec's one refusal (its update matched no row).
 */
export async function completeJob(jobId: string, workerId: string): Promise<JobChangeResult> {
  return retryWhileStale(async () => {
    const job = await getJob(jobId, { consistentRead: true });
    if (!job || job.workerId !== workerId || !canPerform('complete', job)) throw notFound(MSG.applications.notAuthorizedToComplete);
    // A new completion answers the last decline: its reason no longer applies, and a price change
    // still waiting lapses (the price is settled once the work is done). The payment is
    // released automatically after the deploy's delay (the schedules rule reads autoReleaseAt) —
    // unless a dispute on the job is open: the countdown waits for it (Wave 5), and its
    // resolution without money gives the countdown back. The condition holds the count read.
    const disputed = (job.openDisputes ?? 0) > 0;
    const { updated, update } = jobTransition(
      job,
      'complete',
      { declineReason: undefined, priceChange: undefined, autoReleaseAt: disputed ? undefined : autoReleaseTime(), autoReleaseReminders: undefined, autoReleaseBlockedAt: undefined, autoReleaseBlockedReason: undefined, autoReleaseBlockedFor: undefined },
      {
        by: { workerId },
        condition: disputed ? { expression: 'openDisputes > :none', values: { ':none': 0 } } : { expression: 'attribute_not_exists(openDisputes) OR openDisputes <= :none', values: { ':none': 0 } },
      },
    );
    const notification = notificationItem({
      userId: job.posterId,
      jobId,
      type: 'job_completed',
      title: MSG.applications.completedTitle,
      message: MSG.applications.completedMessage(job.title),
      metadata: { jobTitle: job.title, workerId },
    });
    await transactWrite([{ Update: update }, jobEvent(JOB_EVENT.updated, updated, 'completed'), ...notificationWrites(notification)]);
    return { job: updated, notifications: [notification] };
  });
}

/**
 * The poster declines a completion (`completed -> assigned`, spec 2 §4); the worker receives
 * the reason as feedback, in the message and in `metadata.reason`.
 */
export async function declineCompletion(jobId: string, posterId: string, reason: string): Promise<JobChangeResult> {
  return retryWhileStale(async () => {
    const job = await jobOfPoster(jobId, posterId);
    if (!canPerform('declineCompletion', job) || !job.workerId) throw conflict(MSG.applications.onlyCompletedDecline);
    // Kept on the job for the worker's job page and dashboard, until they complete again.
    // The pending auto-release goes with the completion (the schedules rule deletes its schedules),
    // and so does a pause of it: the next completion starts a countdown of its own.
    const { updated, update } = jobTransition(
      job,
      'declineCompletion',
      { declineReason: reason, autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, pausedReleaseAt: undefined, autoReleaseBlockedAt: undefined, autoReleaseBlockedReason: undefined, autoReleaseBlockedFor: undefined },
      { by: { posterId } },
    );
    const notification = notificationItem({
      userId: job.workerId,
      jobId,
      type: 'job_declined',
      title: MSG.applications.declinedTitle,
      message: MSG.applications.declinedMessage(job.title, reason),
      metadata: { jobTitle: job.title, reason },
    });
    await transactWrite([{ Update: update }, jobEvent(JOB_EVENT.updated, updated, 'declined'), ...notificationWrites(notification)]);
    return { job: updated, notifications: [notification] };
  });
}
