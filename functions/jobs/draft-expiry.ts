import { DRAFT_TTL_SECONDS } from '../../shared/job-process.js';
import { HttpError } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { queryEveryShard } from '../lib/sharded-lists.js';
import { keys } from '../table.js';
import { deleteJob } from './job-management.js';
import type { JobItem } from './jobs.js';

/**
 * Unpaid drafts a day old (DRAFT_TTL_SECONDS) are removed as their poster's delete removes them:
 * their PaymentIntent cancelled — or refunded, should its card step have finished just now — by
 * the draft's void decision. Run by the money decisions' schedule; the item's TTL is a backstop
 * after it. Answers how many it removed.
 */
export async function expireDrafts(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DRAFT_TTL_SECONDS * 1000).toISOString();
  // GSI1 `JOBS#awaiting_payment#<shard>` sorts drafts by their creation time.
  const drafts = await queryEveryShard<Pick<JobItem, 'id' | 'posterId'>>(keys.jobsByStatus('awaiting_payment').partitions, {
    IndexName: 'GSI1',
    KeyConditionExpression: '#sk < :cutoff',
    ExpressionAttributeNames: { '#sk': 'gsi1sk' },
    ExpressionAttributeValues: { ':cutoff': cutoff },
    ProjectionExpression: 'id, posterId',
  });
  let removed = 0;
  for (const draft of drafts) {
    try {
      await deleteJob(draft.id, { userId: draft.posterId, isAdmin: false });
      removed += 1;
    } catch (error) {
      // Paid (opened) or removed meanwhile: nothing to expire.
      if (!(error instanceof HttpError)) throw error;
      logger.info('draft not expired', { jobId: draft.id, reason: error.message });
    }
  }
  return removed;
}
