import type { EventBridgeEvent } from 'aws-lambda';
import type { LiveMessage } from '../../shared/api.js';
import { JOB_EVENT, type JobEventDetail } from '../routes.js';
import { CONNECTION_SHARDS } from '../table.js';
import { logger, withLogContext } from '../lib/logger.js';
import { sendMessages } from '../lib/queues.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/** What browsers receive on the socket for a job change. */
export type JobFeedMessage = Extract<LiveMessage, { type: 'job.posted' | 'job.updated' | 'job.removed' }>;

/** One queue message of the fan-out: push `message` to every connection of `shard`. */
export interface JobFeedShardMessage {
  shard: number;
  message: JobFeedMessage;
}

export function toFeedMessage(detailType: JobEventType, { job, change }: JobEventDetail): JobFeedMessage {
  // A suspended poster's job leaves the browsers' feeds as a removed one does, and comes back as if new.
  if (detailType === JOB_EVENT.removed || change === 'hidden') return { type: 'job.removed', jobId: job.id };
  // Only the public summary goes out, never fields the bus carries for other consumers.
  const { paidAt: _paidAt, stripePaymentIntentId: _intent, ...summary } = job;
  return { type: detailType === JOB_EVENT.posted || change === 'shown' ? 'job.posted' : 'job.updated', job: summary };
}

/**
 * Job inserts, updates and removals go to every connected browser, the public fields only:
 * one queue message per connection shard, each pushed by its own consumer invocation
 * (functions/queues/job-feed-shard.ts), so the fan-out grows with the shards, not one function.
 */
async function handle(event: EventBridgeEvent<JobEventType, JobEventDetail>): Promise<void> {
  const message = toFeedMessage(event['detail-type'], event.detail);
  const shards: JobFeedShardMessage[] = Array.from({ length: CONNECTION_SHARDS }, (_, shard) => ({ shard, message }));
  await sendMessages('jobFeedQueueUrl', shards);
  logger.info('job feed fanned out', { type: message.type, shards: shards.length });
}

export const handler = withLogContext(handle);
