import { tableName } from '../lib/db.js';
import { logger } from '../lib/logger.js';
import { TransactionRefused, transactOrConflict, transactWrite } from '../lib/transactions.js';
import { AUTO_RELEASE_MINIMUM_SECONDS, canPerform } from '../../shared/job-process.js';
import { HttpError, conflict } from '../lib/errors.js';
import { jobEvent } from '../jobs/job-events.js';
import { autoReleaseDelaySeconds } from '../jobs/job-completion.js';
import { jobOfPoster, jobTransition } from '../jobs/job-transitions.js';
import { JOB_EVENT } from '../routes.js';
import { MSG } from '../../shared/messages.js';
import type { PaymentAccount } from '../../shared/payments.js';
import { keys } from '../table.js';
import { releasePayment } from './job-money.js';
import { getJob, listWorkerJobs, type JobItem } from '../jobs/jobs.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { publishJobReviews } from '../reviews/reviews.js';

/** What a schedule of the auto-release group hands the auto-release function. */
export interface AutoReleaseInput {
  action: 'release' | 'remind';
  jobId: string;
  /** The release this schedule belongs to: a job completed again has another, and older schedules do nothing. */
  releaseAt: string;
  /** Which reminder (index in AUTO_RELEASE.reminderFractions). */
  reminder?: number;
}

/** What the schedule publishing a paid job's hidden reviews hands the same function. */
export interface ReviewPublicationInput {
  action: 'publish-reviews';
  jobId: string;
}

/** "in about 2 hours", "in about 5 minutes": the reminder is read around the time it is sent. */
function fromNow(time: string): string {
  const minutes = Math.max(1, Math.round((Date.parse(time) - Date.now()) / 60_000));
  if (minutes < 90) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `in about ${Math.round(minutes / 60)} hours`;
}

/**
 * Reminds the poster once per reminder, only while the job still awaits this release: the
 * notification and the mark on the job are one transaction, conditional on the job.
 */
async function remindPoster(input: AutoReleaseInput): Promise<void> {
  const job = await getJob(input.jobId, { consistentRead: true });
  if (!job || job.status !== 'completed' || job.autoReleaseAt !== input.releaseAt) return;
  const notification = notificationItem({
    userId: job.posterId,
    jobId: job.id,
    type: 'job_completed',
    title: MSG.payments.autoReleaseReminderTitle,
    message: MSG.payments.autoReleaseReminderMessage(job.title, fromNow(input.releaseAt)),
    metadata: { jobTitle: job.title, autoReleaseAt: input.releaseAt },
  });
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(job.id),
          UpdateExpression: 'ADD autoReleaseReminders :reminder',
          ConditionExpression: '#status = :completed AND autoReleaseAt = :at AND NOT contains(autoReleaseReminders, :number)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':reminder': new Set([input.reminder ?? 0]), ':number': input.reminder ?? 0, ':completed': 'completed', ':at': input.releaseAt },
        },
      },
      ...notificationWrites(notification),
    ]);
  } catch (error) {
    // Sent already (a repeated invocation), or the job moved on since it was read.
    if (!(error instanceof TransactionRefused)) throw error;
  }
}

/**
 * What a schedule does when it fires. The release is the poster's exactly-once release,
 * made only while the job is completed with this release pending (a decline, a pause, a
 * dispute, a refund or a release by the poster or the admin removed it). A release the
 * worker's payment account cannot take yet is marked on the job, told to both parties and
 * shown to the admin, and made again when the account is ready (retryBlockedReleases).
 */
export async function runAutoRelease(input: AutoReleaseInput | ReviewPublicationInput): Promise<void> {
  if (input.action === 'publish-reviews') return publishJobReviews(input.jobId);
  if (input.action === 'remind') return remindPoster(input);
  const job = await getJob(input.jobId, { consistentRead: true });
  if (!job || job.status !== 'completed' || job.autoReleaseAt !== input.releaseAt) return;
  try {
    await releasePayment(job.id, job.posterId, { automatic: { releaseAt: input.releaseAt } });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    logger.warn('auto-release refused', { jobId: job.id, reason: error.message });
    if (error.status === 400) await markReleaseBlocked(job, error.message);
  }
}

/** The auto-release came due but the worker's account cannot take the transfer: marked once, both parties told. */
async function markReleaseBlocked(job: JobItem, reason: string): Promise<void> {
  const notices = [
    notificationItem({ userId: job.workerId!, jobId: job.id, type: 'payment_blocked', title: MSG.payments.autoReleaseBlockedTitle, message: MSG.payments.autoReleaseBlockedToWorker(job.title), metadata: { jobTitle: job.title } }),
    notificationItem({ userId: job.posterId, jobId: job.id, type: 'payment_blocked', title: MSG.payments.autoReleaseBlockedToPosterTitle, message: MSG.payments.autoReleaseBlockedToPoster(job.title), metadata: { jobTitle: job.title } }),
  ];
  const blocked: JobItem = { ...job, autoReleaseBlockedAt: new Date().toISOString(), autoReleaseBlockedReason: reason, autoReleaseBlockedFor: job.autoReleaseAt };
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(job.id),
          UpdateExpression: 'SET autoReleaseBlockedAt = :now, autoReleaseBlockedReason = :reason, autoReleaseBlockedFor = :at',
          ConditionExpression: '#status = :completed AND autoReleaseAt = :at AND attribute_not_exists(autoReleaseBlockedAt)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': blocked.autoReleaseBlockedAt, ':reason': reason, ':completed': 'completed', ':at': job.autoReleaseAt },
        },
      },
      jobEvent(JOB_EVENT.updated, blocked, 'releaseBlocked'),
      ...notices.flatMap(notificationWrites),
    ]);
  } catch (error) {
    // Marked already (a repeated invocation), or the job moved on since it was read.
    if (!(error instanceof TransactionRefused)) throw error;
  }
}

/**
 * A worker's account was saved (account.updated, or the worker's own refresh): once it is ready,
 * the auto-releases it blocked are made, each the same exactly-once automatic release, with
 * every guard it had (Wave 5): still this countdown's release, not paused, no dispute open — a
 * decline since cleared the block, and the next completion starts a fresh countdown.
 */
export async function releaseBlockedWhenReady(workerId: string, account: PaymentAccount): Promise<number> {
  if (account.status !== 'complete') return 0;
  // The block is this countdown's: one resumed or given back since runs to its own end first (marks before it was kept: any).
  const blocksThisCountdown = (job: JobItem) => job.autoReleaseAt !== undefined && (job.autoReleaseBlockedFor ?? job.autoReleaseAt) === job.autoReleaseAt;
  const waiting = (await listWorkerJobs(workerId, 'completed')).filter((job) => job.autoReleaseBlockedAt && blocksThisCountdown(job) && !job.autoReleasePausedAt && !((job.openDisputes ?? 0) > 0));
  let released = 0;
  for (const job of waiting) {
    try {
      await releasePayment(job.id, job.posterId, { automatic: { releaseAt: job.autoReleaseAt! } });
      released++;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      logger.warn('blocked auto-release still refused', { jobId: job.id, reason: error.message });
    }
  }
  return released;
}

/** When a paused or given-back auto-release comes due: its original time, but at least the minimum from now. */
export function resumedReleaseTime(original: string | undefined): string {
  const minimum = Date.now() + Math.min(AUTO_RELEASE_MINIMUM_SECONDS, autoReleaseDelaySeconds()) * 1000;
  return new Date(Math.max(minimum, original ? Date.parse(original) : 0)).toISOString();
}

/** The poster pauses the countdown (Wave 3), with a reason the worker sees; the schedules go with the `autoReleasePaused` event. */
export async function pauseAutoRelease(jobId: string, posterId: string, reason: string): Promise<JobItem> {
  const job = await jobOfPoster(jobId, posterId);
  if (!canPerform('pauseAutoRelease', job) || !job.autoReleaseAt || job.autoReleasePausedAt) throw conflict(MSG.payments.autoReleaseNotRunning);
  const { updated, update } = jobTransition(job, 'pauseAutoRelease', { autoReleasePausedAt: new Date().toISOString(), autoReleasePauseReason: reason, autoReleaseAt: undefined, pausedReleaseAt: job.autoReleaseAt }, {
    by: { posterId },
    condition: { expression: 'autoReleaseAt = :at AND attribute_not_exists(autoReleasePausedAt)', values: { ':at': job.autoReleaseAt } },
  });
  const notice = notificationItem({ userId: job.workerId!, jobId, type: 'payment_paused', title: MSG.payments.autoReleasePausedTitle, message: MSG.payments.autoReleasePausedMessage(job.title, reason), metadata: { jobTitle: job.title, reason } });
  await transactOrConflict([{ Update: update }, jobEvent(JOB_EVENT.updated, updated, 'autoReleasePaused'), ...notificationWrites(notice)], MSG.payments.autoReleaseNotRunning);
  return updated;
}

/** The poster resumes a paused countdown: released at its old time, or at least the minimum from now. */
export async function resumeAutoRelease(jobId: string, posterId: string): Promise<JobItem> {
  const job = await jobOfPoster(jobId, posterId);
  if (!canPerform('resumeAutoRelease', job) || !job.autoReleasePausedAt) throw conflict(MSG.payments.autoReleaseNotPaused);
  const { updated, update } = jobTransition(
    job,
    'resumeAutoRelease',
    { autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, pausedReleaseAt: undefined, autoReleaseReminders: undefined, autoReleaseAt: resumedReleaseTime(job.pausedReleaseAt) },
    { by: { posterId }, condition: { expression: 'attribute_exists(autoReleasePausedAt)', values: {} } },
  );
  const notice = notificationItem({ userId: job.workerId!, jobId, type: 'payment_resumed', title: MSG.payments.autoReleaseResumedTitle, message: MSG.payments.autoReleaseResumedMessage(job.title), metadata: { jobTitle: job.title } });
  await transactOrConflict([{ Update: update }, jobEvent(JOB_EVENT.updated, updated, 'autoReleaseScheduled'), ...notificationWrites(notice)], MSG.payments.autoReleaseNotPaused);
  return updated;
}

