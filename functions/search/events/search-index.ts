import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { syncSearchTerms } from '../job-search.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * Keeps the open-jobs search index in line with every job change. EventBridge retries a
 * failed run; the sync reads the job's current state, so retries and reordering are harmless.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const jobId = event.detail.job.id;
  const result = await syncSearchTerms(jobId);
  logger.info('search index synced', { jobId, ...result });
}

export const handler = withLogContext(handle);
