import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DataExport, ExportRecord } from '../../shared/api.js';
import { batchGet } from '../lib/batch.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { TABLE_DESIGN, keys, type ItemKey } from '../table.js';
import type { JobItem } from '../jobs/jobs.js';
import { listPosterJobs, listWorkerJobs } from '../jobs/jobs.js';

/**
 * "Download my data" (issue 27): everything the table keeps about one user, as one JSON
 * document answered directly (docs/decisions/0130-data-export-answered-directly-not-through-s3.md).
 * Privacy rule: the user gets what they wrote and what is about their account; other people's
 * own words (the other party's messages, applications to the user's jobs, a dispute's
 * description filed against them) stay out, and the jobs they worked show the job, not the
 * poster's private address.
 * Every read is a Query or a Get by key: the user's partition and their index partitions.
 */

/** Table plumbing (keys, index keys, TTL) that says nothing about the user. */
const PLUMBING = new Set<string>([
  TABLE_DESIGN.partitionKey,
  TABLE_DESIGN.sortKey,
  TABLE_DESIGN.timeToLiveAttribute,
  ...Object.values(TABLE_DESIGN.indexes).flatMap((index) => [index.partitionKey, index.sortKey]),
]);

function record(item: Record<string, unknown>): ExportRecord {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !PLUMBING.has(name)));
}

const WORKED_JOB_FIELDS = ['id', 'title', 'category', 'location', 'payment', 'date', 'duration', 'status', 'assignedAt', 'paidAt', 'createdAt', 'updatedAt'] as const;

/** A job the user worked: the job as the worker knew it, without the poster's address or location. */
function workedJob(job: JobItem): ExportRecord {
  return Object.fromEntries(WORKED_JOB_FIELDS.filter((field) => job[field] !== undefined).map((field) => [field, job[field]]));
}

const byIndex = (index: 'GSI1' | 'GSI2', partition: string) =>
  queryAll<Record<string, unknown>>({
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': TABLE_DESIGN.indexes[index].partitionKey },
    ExpressionAttributeValues: { ':pk': partition },
  });

/** What the user sent in one partition (a conversation or a dispute's thread). */
const sentIn = (partition: string, prefix: string, userId: string) =>
  queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'senderId = :user',
    ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix, ':user': userId },
  });

const withPrefix = (items: Array<Record<string, unknown>>, prefix: string) =>
  items.filter((item) => String(item[TABLE_DESIGN.sortKey]).startsWith(prefix)).map(record);

export async function exportUserData(userId: string, now = new Date()): Promise<DataExport | null> {
  const { Item: profile } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.profile(userId) }));
  if (!profile) return null;

  const [ownPartition, posted, worked, applications, questionsAsked, conversations, disputesFiled, disputesAbout] = await Promise.all([
    queryAll<Record<string, unknown>>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.userPartition(userId) } }),
    listPosterJobs(userId),
    listWorkerJobs(userId),
    byIndex('GSI1', keys.applicationsOfWorker(userId)),
    byIndex('GSI1', keys.questionsOf(userId)),
    Promise.all([byIndex('GSI1', keys.conversationsOf(userId)), byIndex('GSI2', keys.conversationsOf(userId))]).then((sides) => sides.flat()),
    byIndex('GSI1', keys.disputesOfUser(userId)),
    byIndex('GSI2', keys.disputesOfUser(userId)),
  ]);

  // The reviews the user wrote live in the other party's partition, one key per job.
  const reviewKeys: ItemKey[] = [
    ...posted.filter((job) => job.workerId).map((job) => keys.review(job.workerId!, job.id, userId)),
    ...worked.map((job) => keys.review(job.posterId, job.id, userId)),
  ];
  // A poster's payments are indexed by poster; a worker's are reached through the jobs they were paid for.
  const workerPaymentKeys = worked.filter((job) => job.stripePaymentIntentId).map((job) => keys.payment(job.stripePaymentIntentId!));
  const disputes = [...disputesFiled, ...disputesAbout];
  // A poster's answers live on their jobs' questions: read only on the jobs that have any.
  const askedOnPosted = posted.filter((job) => (job.questionCount ?? 0) > 0);
  const [reviewsWritten, posterPayments, workerPayments, messagesSent, disputeMessagesSent, questionsOnPosted] = await Promise.all([
    batchGet<Record<string, unknown>>(reviewKeys),
    byIndex('GSI2', keys.paymentsOfPoster(userId)),
    batchGet<Record<string, unknown>>(workerPaymentKeys),
    Promise.all(conversations.map((conversation) => sentIn(String(conversation.pk), keys.messagePrefix(), userId))),
    Promise.all(disputes.map((dispute) => sentIn(keys.disputePartition(String(dispute.id)), keys.disputeMessagePrefix(), userId))),
    Promise.all(
      askedOnPosted.map((job) =>
        queryAll<Record<string, unknown>>({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: 'attribute_exists(answer)',
          ExpressionAttributeValues: { ':pk': keys.jobPartition(job.id), ':prefix': keys.jobQuestionPrefix() },
        }),
      ),
    ),
  ]);

  return {
    exportedAt: now.toISOString(),
    profile: record(profile),
    jobsPosted: posted.map((job) => record(job as unknown as Record<string, unknown>)),
    jobsWorked: worked.map(workedJob),
    applications: applications.map(record),
    questionsAsked: questionsAsked.map(record),
    // The asker's question beside each answer is the asker's words: the answer with what it answers only by id.
    answersWritten: questionsOnPosted.flat().map(({ text: _text, askerId: _asker, ...answered }) => record(answered)),
    savedJobs: withPrefix(ownPartition, 'SAVED#'),
    messagesSent: messagesSent.flat().map(record),
    reviewsWritten: reviewsWritten.filter((review) => review !== undefined).map(record),
    // A review still hidden (double-blind) is not the user's to read yet.
    reviewsAbout: withPrefix(ownPartition, 'REVIEW#').filter((review) => review.publishedAt !== undefined),
    notifications: withPrefix(ownPartition, keys.notificationPrefix()),
    payments: [...posterPayments, ...workerPayments.filter((payment) => payment !== undefined)].map(record),
    disputesFiled: disputesFiled.map(record),
    // The filer's description is their words, not the user's: the dispute without it.
    disputesAbout: disputesAbout.map(({ description: _description, ...dispute }) => record(dispute)),
    disputeMessagesSent: disputeMessagesSent.flat().map(record),
    // The browser's keys encrypt its pushes: a credential of that browser, not data about the user.
    pushSubscriptions: withPrefix(ownPartition, keys.pushSubscriptionPrefix()).map(({ keys: _keys, ...subscription }) => subscription),
    savedSearches: withPrefix(ownPartition, keys.savedSearchPrefix()),
  };
}
