import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { locateJob } from '../job-geocoding.js';
import { getJob } from '../jobs.js';
import { syncSearchDocument } from '../../search/search-documents.js';
import { withLogContext } from '../../lib/logger.js';

/**
 * Geocodes a job's address after it was posted or edited, off the request path (best effort:
 * an address not found is told to its poster). The geocoding service failing fails the run, so
 * that EventBridge tries again: the rule sees no other change of the job to try on. A located
 * job's search document then takes its area (issue 46): geocoding writes no job event of its own.
 */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const job = await getJob(event.detail.job.id);
  if (!job) return;
  await locateJob(job, { retryWhenUnavailable: true });
  await syncSearchDocument(job.id);
}

export const handler = withLogContext(handle);
