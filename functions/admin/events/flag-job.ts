import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { flagAutomatically } from '../job-flags.js';
import { logger, withLogContext } from '../../lib/logger.js';

/** Flags a posted or edited job for the admin when its text or its payment looks wrong. */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const flagged = await flagAutomatically(event.detail.job.id);
  if (flagged) logger.info('job flagged automatically', { jobId: event.detail.job.id, flagged });
}

export const handler = withLogContext(handle);
