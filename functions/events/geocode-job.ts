import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../routes.js';
import { locateJob } from '../domain/job-geocoding.js';
import { getJob } from '../domain/jobs.js';
import { withLogContext } from '../lib/logger.js';

/** Geocodes a job's address after it was posted or edited, off the request path (best effort). */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const job = await getJob(event.detail.job.id);
  if (job) await locateJob(job);
}

export const handler = withLogContext(handle);
