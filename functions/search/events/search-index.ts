import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { syncSearchDocument } from '../search-documents.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * Keeps each job's search document in line with every job change. EventBridge retries a
 * failed run; the sync reads the job's current state, so retries and reordering are harmless.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const jobId = event.detail.job.id;
  const result = await syncSearchDocument(jobId);
  logger.info('search document synced', { jobId, result });
}

export const handler = withLogContext(handle);
