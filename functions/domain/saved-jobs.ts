import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedJob } from '../../shared/api.js';
import { batchGet, batchWrite } from '../lib/batch.js';
import { db, tableName } from '../lib/db.js';
import { keys, timeOrdered } from '../table.js';
import { toJobSummary, type JobItem } from './jobs.js';

/** Saving twice keeps the first save (and its time). */
export async function saveJob(workerId: string, jobId: string): Promise<void> {
  const savedAt = new Date().toISOString();
  await db
    .send(
      new PutCommand({
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
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
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
