import { sweepDeletions } from '../account-deletion.js';
import { logger, withLogContext } from '../../lib/logger.js';

/** The daily schedule's target (RECURRING_SCHEDULES.deletionSweep): logs and answers what it checked. */
export const handler = withLogContext(async () => {
  const result = await sweepDeletions();
  logger.info('deletion sweep', { ...result });
  return result;
});
