import { AUTO_RELEASE, REVIEW_PUBLICATION } from '../routes.js';
import { optionalEnv } from '../lib/env.js';
import { createReleaseSchedule, deleteReleaseSchedule } from '../lib/scheduler.js';
import type { AutoReleaseInput, ReviewPublicationInput } from './auto-release.js';

/*
 * The auto-release's schedules: made when a job is completed (or its countdown given back),
 * deleted when anything else ends the wait. Kept apart from the auto-release's decisions so
 * that only the function handling these job events bundles the Scheduler client.
 */

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
