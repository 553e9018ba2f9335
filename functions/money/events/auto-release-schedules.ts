import type { EventBridgeEvent } from 'aws-lambda';
import { cancelAutoRelease, scheduleAutoRelease, scheduleReviewPublication } from '../auto-release-schedules.js';
import { withLogContext } from '../../lib/logger.js';
import { AUTO_RELEASE, type JobEventDetail } from '../../routes.js';

/**
 * A completion schedules the job's release and reminders; a decline, a dispute, a release,
 * a cancellation or a removal deletes them. Events may arrive out of order: a schedule left
 * by one does nothing when it fires, as the job no longer awaits that release. A release
 * (`paid`, the job's last change) also schedules the publication of its hidden reviews.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const { change, job, autoReleaseAt } = event.detail;
  if (change && (AUTO_RELEASE.schedulingChanges as readonly string[]).includes(change) && autoReleaseAt) await scheduleAutoRelease(job.id, autoReleaseAt, job.updatedAt);
  else await cancelAutoRelease(job.id);
  if (change === 'paid') await scheduleReviewPublication(job.id, job.updatedAt);
}

export const handler = withLogContext(handle);
