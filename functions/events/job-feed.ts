import type { EventBridgeEvent } from 'aws-lambda';
import type { LiveMessage } from '../../shared/api.js';
import { JOB_EVENT, type JobEventDetail } from '../routes.js';
import { logger } from '../lib/logger.js';
import { allConnectionIds, pushToConnections } from '../lib/sockets.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/** What browsers receive on the socket for a job change. */
export type JobFeedMessage = Extract<LiveMessage, { type: 'job.posted' | 'job.updated' | 'job.removed' }>;

export function toFeedMessage(detailType: JobEventType, { job }: JobEventDetail): JobFeedMessage {
  if (detailType === JOB_EVENT.removed) return { type: 'job.removed', jobId: job.id };
  // Only the public summary goes out, never fields the bus carries for other consumers.
  const { paidAt: _paidAt, stripePaymentIntentId: _intent, ...summary } = job;
  return { type: detailType === JOB_EVENT.posted ? 'job.posted' : 'job.updated', job: summary };
}

/** Job inserts, updates and removals go to every connected browser; the public fields only. */
export async function handler(event: EventBridgeEvent<JobEventType, JobEventDetail>): Promise<void> {
  const message = toFeedMessage(event['detail-type'], event.detail);
  const delivered = await pushToConnections(allConnectionIds(), message);
  logger.info('job feed pushed', { type: message.type, delivered });
}
