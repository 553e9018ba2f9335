import type { EventBridgeEvent } from 'aws-lambda';
import type { JOB_EVENT, JobEventDetail } from '../../routes.js';
import { holdJobChange } from '../live-feed.js';
import { logger, withLogContext } from '../../lib/logger.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/**
 * Job inserts, updates and removals go live to the sockets that show them, the public fields
 * only: the change is held as the job's pending push, and the first change of a coalescing
 * window sends the delayed message that pushes the newest (functions/live/queues/job-feed-shard.ts).
 */
async function handle(event: EventBridgeEvent<JobEventType, JobEventDetail>): Promise<void> {
  await holdJobChange(event['detail-type'], event.detail);
  logger.info('job feed change held', { type: event['detail-type'], jobId: event.detail.job.id });
}

export const handler = withLogContext(handle);
