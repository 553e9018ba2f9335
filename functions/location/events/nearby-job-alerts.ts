import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { locateJob } from '../../jobs/job-geocoding.js';
import { getJob } from '../../jobs/jobs.js';
import { alertWorkersNear } from '../nearby-alerts.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * A paid job opened: alert the workers near it (DECISIONS.md "Nearby-job alerts"). Safe to
 * run twice for one event: each (job, worker) alert is written at most once.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const job = await getJob(event.detail.job.id);
  if (!job || job.status !== 'open') return;
  const point = await locateJob(job);
  if (!point) return;
  const run = await alertWorkersNear(job, point);
  logger.info('nearby-job alerts', { jobId: job.id, ...run });
}

export const handler = withLogContext(handle);
