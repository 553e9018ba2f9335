import { AUTO_RELEASE, REVIEW_PUBLICATION } from '../routes.js';
import { tableName } from '../lib/db.js';
import { optionalEnv } from '../lib/env.js';
import { HttpError } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { createReleaseSchedule, deleteReleaseSchedule } from '../lib/scheduler.js';
import { TransactionRefused, transactWrite } from '../lib/transactions.js';
import { MSG } from '../../shared/messages.js';
import { keys } from '../table.js';
import { releasePayment } from './job-payments.js';
import { getJob } from './jobs.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { publishJobReviews } from './reviews.js';

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

/** The job's schedule names (at most 64 characters: a job id is a UUID). */
const releaseScheduleName = (jobId: string) => `release-${jobId}`;
const reminderScheduleName = (jobId: string, reminder: number) => `remind${reminder}-${jobId}`;
const reviewPublicationScheduleName = (jobId: string) => `reviews-${jobId}`;

/** How long after a release the job's reviews are published: REVIEW_PUBLICATION_SECONDS when set (local stack, tests), else 7 days. */
function reviewPublicationDelaySeconds(): number {
  const seconds = Number(optionalEnv('reviewPublicationSeconds'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : REVIEW_PUBLICATION.defaultDays * 86_400;
}

/**
 * A released job's hidden reviews are published together at the latest this long after the
 * release (double-blind reviews), by a schedule of the same group and function as the release's.
 */
export async function scheduleReviewPublication(jobId: string, releasedAt: string): Promise<void> {
  const time = new Date(Date.parse(releasedAt) + reviewPublicationDelaySeconds() * 1000);
  await createReleaseSchedule(reviewPublicationScheduleName(jobId), time, { action: 'publish-reviews', jobId } satisfies ReviewPublicationInput);
}

/**
 * The release at `releaseAt` and the reminders before it that are still ahead. The reminders
 * sit at fractions of the delay the job was given (completion to release), so a short delay
 * set for a demo or a test keeps both reminders.
 */
export async function scheduleAutoRelease(jobId: string, releaseAt: string, completedAt: string): Promise<void> {
  const release = Date.parse(releaseAt);
  const delay = release - Date.parse(completedAt);
  const reminders = AUTO_RELEASE.reminderFractions
    .map((fraction, reminder) => ({ reminder, time: new Date(release - fraction * delay) }))
    .filter(({ time }) => time.getTime() > Date.now());
  await Promise.all([
    createReleaseSchedule(releaseScheduleName(jobId), new Date(release), { action: 'release', jobId, releaseAt } satisfies AutoReleaseInput),
    ...reminders.map(({ reminder, time }) =>
      createReleaseSchedule(reminderScheduleName(jobId, reminder), time, { action: 'remind', jobId, releaseAt, reminder } satisfies AutoReleaseInput),
    ),
  ]);
}

/** Deletes the job's release and reminder schedules (those that fired are gone already). */
export async function cancelAutoRelease(jobId: string): Promise<void> {
  await Promise.all([
    deleteReleaseSchedule(releaseScheduleName(jobId)),
    ...AUTO_RELEASE.reminderFractions.map((_, reminder) => deleteReleaseSchedule(reminderScheduleName(jobId, reminder))),
  ]);
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
 * made only while the job is completed with this release pending (a decline, a dispute or a
 * release by the poster or the admin removed it); a release that cannot be made (the
 * worker's payment account is not ready) is logged, not retried.
 */
export async function runAutoRelease(input: AutoReleaseInput | ReviewPublicationInput): Promise<void> {
  if (input.action === 'publish-reviews') return publishJobReviews(input.jobId);
  if (input.action === 'remind') return remindPoster(input);
  const job = await getJob(input.jobId, { consistentRead: true });
  if (!job || job.status !== 'completed' || job.autoReleaseAt !== input.releaseAt) return;
  try {
    await releasePayment(job.id, job.posterId, { automatic: true });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    logger.warn('auto-release refused', { jobId: job.id, reason: error.message });
  }
}
