import type { EventBridgeEvent } from 'aws-lambda';
import type { JobSummary } from '../../shared/api.js';
import { JOB_EVENT } from '../routes.js';
import { logger } from '../lib/logger.js';
import { allConnectionIds, pushToConnections } from '../lib/sockets.js';

type JobEventType = (typeof JOB_EVENT)[keyof typeof JOB_EVENT];

/** What browsers receive on the socket for a job change. */
export type JobFeedMessage =
  | { type: 'job.posted' | 'job.updated'; job: JobSummary }
  | { type: 'job.removed'; jobId: string };

export function toFeedMessage(detailType: JobEventType, detail: { job?: JobSummary; jobId?: string }): JobFeedMessage {
  if (detailType === JOB_EVENT.removed) return { type: 'job.removed', jobId: detail.jobId ?? detail.job?.id ?? '' };
  return { type: detailType === JOB_EVENT.posted ? 'job.posted' : 'job.updated', job: detail.job as JobSummary };
}

/** Job inserts, updates and removals go to every connected browser; the public fields only. */
export async function handler(event: EventBridgeEvent<JobEventType, { job?: JobSummary; jobId?: string }>): Promise<void> {
  const message = toFeedMessage(event['detail-type'], event.detail);
  const delivered = await pushToConnections(allConnectionIds(), message);
  logger.info('job feed pushed', { type: message.type, delivered });
}
