import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { locateJob } from '../../jobs/job-geocoding.js';
import { getJob } from '../../jobs/jobs.js';
import { alertSavedSearches } from '../saved-searches.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * A paid job opened: alert the workers whose saved searches it matches (issue 46). Safe to run
 * twice for one event: each (job, worker) alert is written at most once, and not at all when
 * the worker's nearby-job alert came first.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const job = await getJob(event.detail.job.id);
  if (!job || job.status !== 'open') return;
  const point = await locateJob(job);
  if (!point) return;
  const run = await alertSavedSearches(job, point);
  logger.info('saved-search alerts', { jobId: job.id, ...run });
}

export const handler = withLogContext(handle);
