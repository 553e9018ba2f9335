import { sendDueDigests } from '../nearby-digest.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * The hourly schedule's target (RECURRING_SCHEDULES.nearbyDigest): emails the due nearby-jobs
 * digests and answers how each went. A digest SES refused is put back for the next run.
 */
export const handler = withLogContext(async () => {
  const outcomes = await sendDueDigests();
  logger.info('nearby digests', outcomes);
  return outcomes;
});
