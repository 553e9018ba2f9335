import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Dispute, DisputeCenterState, DisputeMessage, DisputeThread } from '../../shared/api.js';
import { DEFAULT_DISPUTE_PRIORITY, POSTER_DISPUTABLE, PRIORITY_WEIGHT, WORKER_DISPUTABLE, isDisputeOpen, type DisputeStatus } from '../../shared/disputes.js';
import { isMoneyPending, moneyStateOf } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import type { FileDisputeRequest } from '../../shared/schemas/dispute.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { conflict, forbidden, notFound } from '../lib/errors.js';
import { TransactionRefused, retryWhileStale, transactOrConflict, transactWrite, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT } from '../routes.js';
import { keys } from '../table.js';
import { adminUserId } from '../people/admin-seat.js';
import { jobEvent } from '../jobs/job-events.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';

/** A dispute as stored: `type` is the item's kind, so the dispute's own type is `disputeType`. */
export interface DisputeItem extends Omit<Dispute, 'type'> {
  disputeType: Dispute['type'];
  gsi3pk: string;
  gsi3sk: string;
  /** While a resolution's money decision is carried out: that decision (functions/disputes/dispute-resolution.ts). */
  resolvingDecisionId?: string;
}

export function toDispute(item: DisputeItem): Dispute {
  return {
    id: item.id,
    jobId: item.jobId,
    jobTitle: item.jobTitle,
    reporterId: item.reporterId,
    reportedId: item.reportedId,
    type: item.disputeType,
    priority: item.priority,
    description: item.description,
    status: item.status,
    resolution: item.resolution ?? null,
    resolvedBy: item.resolvedBy ?? null,
    resolvedAt: item.resolvedAt ?? null,
    ...(item.moneyOutcome ? { moneyOutcome: item.moneyOutcome } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

interface ApplicationRecord {
  workerId: string;
  status: string;
  updatedAt: string;
  unassignedAt?: string;
}

/**
 * A former worker of the job: their application was accepted and they are no longer the job's
 * worker. Unassigning closes the accepted application and stamps `unassignedAt`; cancelling an
 * assigned job leaves it accepted while clearing the job's worker.
 */
const wasAssigned = (application: ApplicationRecord, job: JobItem) =>
  Boolean(application.unassignedAt) || (application.status === 'accepted' && application.workerId !== job.workerId);

/** The job's most recent former worker, from its applications (a handful per job). */
async function latestFormerWorker(job: JobItem): Promise<string | undefined> {
  const applications = await queryAll<ApplicationRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(job.id), ':prefix': keys.applicationPrefix() },
  });
  const former = applications.filter((application) => wasAssigned(application, job));
  former.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return former[0]?.workerId;
}

async function isFormerWorker(job: JobItem, userId: string): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.application(job.id, userId) }));
  return Boolean(Item && wasAssigned(Item as ApplicationRecord, job));
}

/**
 * Who the viewer would report on this job (spec 2 §5): the worker if the viewer is the poster,
 * otherwise the poster; undefined when the viewer is a party without a counterpart (the
 * 'Unable to Submit Dispute' state). Anyone else is no party at all: 403.
 */
async function counterpartOf(job: JobItem, viewerId: string): Promise<string | undefined> {
  if (viewerId === job.posterId) {
    if (job.workerId) return POSTER_DISPUTABLE.includes(job.status) ? job.workerId : undefined;
    return latestFormerWorker(job);
  }
  if (viewerId === job.workerId) return WORKER_DISPUTABLE.includes(job.status) ? job.posterId : undefined;
  if (await isFormerWorker(job, viewerId)) return job.posterId;
  throw forbidden(MSG.disputes.cannotSubmit);
}

async function existingDisputeId(jobId: string, reporterId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.disputeMarker(jobId, reporterId), ConsistentRead: true }));
  return Item?.disputeId as string | undefined;
}

export async function getDisputeItem(disputeId: string, consistentRead = false): Promise<DisputeItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.dispute(disputeId), ConsistentRead: consistentRead }));
  return Item as DisputeItem | undefined;
}

async function requireJob(jobId: string): Promise<JobItem> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  return job;
}

/** What the Dispute Center shows the viewer: the form, their dispute under review, or 'unable'. */
export async function disputeCenterState(jobId: string, viewerId: string): Promise<DisputeCenterState> {
  const job = await requireJob(jobId);
  const filed = await existingDisputeId(jobId, viewerId);
  const dispute = filed && (await getDisputeItem(filed));
  if (dispute) return { state: 'under_review', jobId, jobTitle: job.title, dispute: toDispute(dispute) };
  const reportedId = await counterpartOf(job, viewerId);
  return reportedId ? { state: 'form', jobId, jobTitle: job.title, reportedId } : { state: 'unable', jobId };
}

/** The admin's sort key: priority weight, then time (the list is read newest first). */
export const adminIndexKeys = (dispute: Pick<Dispute, 'id' | 'status' | 'priority' | 'createdAt'>) => ({
  gsi3pk: keys.disputesByStatus(dispute.status),
  gsi3sk: keys.priorityOrdered(PRIORITY_WEIGHT[dispute.priority], dispute.createdAt, dispute.id),
});

export interface DisputeChange {
  dispute: Dispute;
  notifications: StoredNotification[];
}

/**
 * The job's side of a filing: a check that it still has the parties the eligibility was read
 * from, one more dispute open on it (its auto-release waits for all of them, Wave 5), and on a
 * job whose payment is pending auto-release, the update that stops it (the schedules rule then
 * deletes its schedules on the `disputed` event).
 */
function jobStillDisputable(job: JobItem): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.job(job.id),
      UpdateExpression: `${job.autoReleaseAt ? 'REMOVE autoReleaseAt, autoReleaseReminders ' : ''}ADD openDisputes :one`,
      // The money as read too: a release (or refund) decided meanwhile would otherwise pay out with the dispute open.
      ConditionExpression:
        '#status = :status AND (#money = :money OR attribute_not_exists(#money)) AND attribute_not_exists(deletingAt) AND ' + (job.workerId ? 'workerId = :worker' : 'attribute_not_exists(workerId)'),
      ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
      ExpressionAttributeValues: { ':status': job.status, ':money': moneyStateOf(job), ':one': 1, ...(job.workerId ? { ':worker': job.workerId } : {}) },
    },
  };
}

/**
 * A party files a dispute about the other (spec 2 §4, §5). One transaction: the marker on a
 * key that exists once per filer and job (so ten simultaneous filings make one dispute), the
 * dispute, a check that the job still has the parties and the money the eligibility was read
 * from, and the notices to the reported party and the admin. A second filing answers 409; one
 * while a decision moves the job's money (a release under way) is asked to try again once it has.
 */
export async function fileDispute(jobId: string, reporterId: string, input: FileDisputeRequest): Promise<DisputeChange> {
  return retryWhileStale(async () => {
    const job = await requireJob(jobId);
    if (await existingDisputeId(jobId, reporterId)) throw conflict(MSG.disputes.alreadyFiled);
    const reportedId = await counterpartOf(job, reporterId);
    if (!reportedId) throw conflict(MSG.disputes.cannotSubmit);
    if (isMoneyPending(job)) throw conflict(MSG.payments.moneyDecisionUnderWay);

    const now = new Date().toISOString();
    const dispute: Dispute = {
      id: randomUUID(),
      jobId,
      jobTitle: job.title,
      reporterId,
      reportedId,
      type: input.type,
      priority: DEFAULT_DISPUTE_PRIORITY,
      description: input.description,
      status: 'open',
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const { type: disputeType, ...disputeFields } = dispute;
    const adminId = await adminUserId();
    const notifications = [reportedId, adminId]
      .filter((userId): userId is string => Boolean(userId))
      .map((userId) =>
        notificationItem({
          userId,
          jobId,
          type: 'dispute_update',
          title: MSG.disputes.filedTitle,
          message: MSG.disputes.filedMessage(job.title),
          metadata: { disputeId: dispute.id, jobTitle: job.title },
        }),
      );
    try {
      await transactWrite([
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.disputeMarker(jobId, reporterId), type: 'disputeMarker', disputeId: dispute.id, createdAt: now },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.dispute(dispute.id),
              ...disputeFields,
              type: 'dispute',
              disputeType,
              gsi1pk: keys.disputesOfUser(reporterId),
              gsi1sk: now,
              gsi2pk: keys.disputesOfUser(reportedId),
              gsi2sk: now,
              ...adminIndexKeys(dispute),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        jobStillDisputable(job),
        ...(job.autoReleaseAt ? [jobEvent(JOB_EVENT.updated, { ...job, autoReleaseAt: undefined }, 'disputed')] : []),
        ...notifications.flatMap(notificationWrites),
      ]);
    } catch (error) {
      if (error instanceof TransactionRefused && error.failed(0)) throw conflict(MSG.disputes.alreadyFiled);
      throw error;
    }
    return { dispute, notifications };
  });
}

/** The disputes where the user is reporter or reported, newest first (two index queries, merged). */
export async function listDisputesOf(userId: string): Promise<Dispute[]> {
  const byIndex = (index: 'GSI1' | 'GSI2') =>
    queryAll<DisputeItem>({
      IndexName: index,
      KeyConditionExpression: `${index.toLowerCase()}pk = :pk`,
      ExpressionAttributeValues: { ':pk': keys.disputesOfUser(userId) },
      ScanIndexForward: false,
    });
  const [filed, about] = await Promise.all([byIndex('GSI1'), byIndex('GSI2')]);
  return [...filed, ...about].map(toDispute).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A dispute the caller may read: a party's or, for the admin, any. Others get 404 (nothing leaks). */
export async function disputeFor(disputeId: string, caller: { userId: string; isAdmin: boolean }): Promise<DisputeItem> {
  const dispute = await getDisputeItem(disputeId, true);
  if (!dispute || !(caller.isAdmin || caller.userId === dispute.reporterId || caller.userId === dispute.reportedId)) {
    throw notFound(MSG.disputes.notFound);
  }
  return dispute;
}

interface DisputeMessageItem extends DisputeMessage {
  pk: string;
  sk: string;
}

const toMessage = ({ id, disputeId, senderId, message, isAdmin, createdAt }: DisputeMessageItem): DisputeMessage => ({
  id,
  disputeId,
  senderId,
  message,
  isAdmin,
  createdAt,
});

/** A dispute with its thread, oldest first. */
export async function disputeThread(disputeId: string, caller: { userId: string; isAdmin: boolean }): Promise<DisputeThread> {
  const dispute = await disputeFor(disputeId, caller);
  const messages = await queryAll<DisputeMessageItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.disputePartition(disputeId), ':prefix': keys.disputeMessagePrefix() },
  });
  return { dispute: toDispute(dispute), messages: messages.map(toMessage) };
}

const OPEN_STATUSES: readonly DisputeStatus[] = ['open', 'investigating'];

/** A condition that the dispute is still open, for the writes that need it so. */
export const stillOpen = {
  ConditionExpression: '#status IN (:open, :investigating)',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':open': OPEN_STATUSES[0], ':investigating': OPEN_STATUSES[1] },
};

/**
 * A party or the admin writes in the thread while the dispute is open (spec 2 §4). The message
 * goes in with a check that the dispute is still open, so a resolution that lands first wins.
 */
export async function postDisputeMessage(
  disputeId: string,
  caller: { userId: string; isAdmin: boolean },
  text: string,
): Promise<{ dispute: Dispute; message: DisputeMessage }> {
  const dispute = await disputeFor(disputeId, caller);
  if (!isDisputeOpen(dispute.status)) throw conflict(MSG.disputes.threadClosed);
  const createdAt = new Date().toISOString();
  const message: DisputeMessage = { id: randomUUID(), disputeId, senderId: caller.userId, message: text, isAdmin: caller.isAdmin, createdAt };
  await transactOrConflict(
    [
      { ConditionCheck: { TableName: tableName(), Key: keys.dispute(disputeId), ...stillOpen } },
      { Put: { TableName: tableName(), Item: { ...keys.disputeMessage(disputeId, createdAt, message.id), type: 'disputeMessage', ...message } } },
    ],
    MSG.disputes.threadClosed,
  );
  return { dispute: toDispute(dispute), message };
}
