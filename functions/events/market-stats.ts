import type { EventBridgeEvent } from 'aws-lambda';
import type { JobEventDetail } from '../routes.js';
import { countJobInMarkets } from '../domain/market-stats.js';
import { logger } from '../lib/logger.js';

/** Keeps the market analytics in line with every job change (idempotent per job state). */
export async function handler(event: EventBridgeEvent<string, JobEventDetail>): Promise<void> {
  const changed = await countJobInMarkets(event.detail.job.id);
  logger.info('market figures counted', { jobId: event.detail.job.id, changed });
}
