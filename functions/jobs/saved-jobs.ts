import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedJob } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { batchGet, batchWrite } from '../lib/batch.js';
import { db, tableName } from '../lib/db.js';
import { notFound } from '../lib/errors.js';
import { TransactionRefused, retryLostRaces, transactWrite } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { toJobSummary, type JobItem } from './jobs.js';

/**
 * Saves a job for a worker, in one transaction with a check that the job still exists, is not
 * being deleted and is not an unpaid draft: a save racing the job's deletion either lands
 * before the deletion marks the job (and the deletion's cascade removes it) or is refused,
 * never left behind. Saving twice keeps the first save (and its time).
 */
export async function saveJob(workerId: string, jobId: string): Promise<void> {
  const savedAt = new Date().toISOString();
  try {
    await retryLostRaces(() =>
      transactWrite([
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.job(jobId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingAt) AND #status <> :draft',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':draft': 'awaiting_payment' },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.savedJob(workerId, jobId),
              type: 'savedJob',
              workerId,
              jobId,
              savedAt,
              gsi1pk: keys.savedJobsOf(workerId),
              gsi1sk: timeOrdered(savedAt, jobId),
              gsi3pk: keys.jobReferences(jobId),
              gsi3sk: `SAVED#${workerId}`,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]),
    );
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    if (error.failed(0)) throw notFound(MSG.jobs.notFound);
    // Only the put's condition failed: the job was already saved.
  }
}

export async function unsaveJob(workerId: string, jobId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.savedJob(workerId, jobId) }));
}

/**
 * The worker's saved jobs, newest first, each with its job: one Query, one BatchGetItem.
 * Entries whose job no longer exists are deleted on the way (spec 2 §7 "Saved jobs").
 */
export async function listSavedJobs(workerId: string): Promise<SavedJob[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.savedJobsOf(workerId) },
      ScanIndexForward: false,
      Limit: 100,
    }),
  );
  const jobs = await batchGet<JobItem>(Items.map((item) => keys.job(item.jobId as string)));
  const orphans = Items.filter((_, i) => !jobs[i] || jobs[i]!.deletingAt);
  if (orphans.length) await batchWrite(orphans.map((item) => ({ DeleteRequest: { Key: keys.savedJob(workerId, item.jobId as string) } })));
  return Items.flatMap((item, i) => {
    const job = jobs[i];
    return job && !job.deletingAt ? [{ savedAt: item.savedAt as string, job: toJobSummary(job) }] : [];
  });
}
