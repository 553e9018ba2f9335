import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../../routes.js';
import { countJobInMarkets } from '../market-stats.js';
import { logger, withLogContext } from '../../lib/logger.js';

/** Keeps the market analytics in line with every job change (idempotent per job state). */
async function handle(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const changed = await countJobInMarkets(event.detail.job.id);
  logger.info('market figures counted', { jobId: event.detail.job.id, changed });
}

export const handler = withLogContext(handle);
