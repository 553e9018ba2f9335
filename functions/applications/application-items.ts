import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Application, ApplicationStatus } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { conflict, notFound } from '../lib/errors.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { jobEvent } from '../jobs/job-events.js';
import type { JobItem } from '../jobs/jobs.js';
import { JOB_EVENT } from '../routes.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';
import { offerDecisionNotice } from './offers.js';

/**
 * Applications as stored, and the writes that decide them: what applying, accepting, an
 * offer's steps and the money process's settlement of an accepted offer (functions/money)
 * share. It imports no money code, so the money plans may use it.
 */

export function toApplication(item: Record<string, unknown>): Application {
  return {
    id: item.id as string,
    jobId: item.jobId as string,
    workerId: item.workerId as string,
    posterId: item.posterId as string,
    status: item.status as ApplicationStatus,
    message: (item.message as string | null | undefined) ?? null,
    amount: (item.amount as number | undefined) ?? null,
    availability: (item.availability as string | undefined) ?? null,
    counter: (item.counter as Application['counter'] | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export function applicationItem({ amount, availability, counter, ...application }: Application) {
  return {
    ...keys.application(application.jobId, application.workerId),
    type: 'application',
    ...application,
    // An offer's fields are kept only on offers: a fixed-price application is stored as before.
    ...(amount !== null ? { amount } : {}),
    ...(availability !== null ? { availability } : {}),
    ...(counter !== null ? { counter } : {}),
    gsi1pk: keys.applicationsOfWorker(application.workerId),
    gsi1sk: timeOrdered(application.createdAt, application.jobId),
  };
}

export async function getApplication(jobId: string, workerId: string): Promise<Application | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.application(jobId, workerId), ConsistentRead: true }));
  return Item ? toApplication(Item) : undefined;
}

/** Every application of a job (a handful: at most 4 pending, plus decided ones), newest first. */
export async function applicationsOfJob(jobId: string): Promise<Application[]> {
  const found = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':prefix': keys.applicationPrefix() },
    // Accepting must see every pending application, including one written a moment ago.
    ConsistentRead: true,
  });
  return found.map(toApplication).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A pending application of the job, or the refusal that explains why there is none. */
export async function pendingApplication(jobId: string, workerId: string, applications?: Application[]): Promise<Application> {
  const application = applications ? applications.find((a) => a.workerId === workerId) : await getApplication(jobId, workerId);
  if (!application) throw notFound(MSG.applications.notFound);
  if (application.status !== 'pending') throw conflict(MSG.applications.notPending);
  return application;
}

/**
 * The job event of an application change (one applied, withdrew or was decided; an offer
 * changed: 0), for its transaction: the pending count is the one read before plus this
 * change. Racing applications may each report the same count; screens showing it re-read the
 * job on the event ('applications'), so the event need only tell them.
 */
export function applicationsChanged(job: JobItem, delta: -1 | 0 | 1): TransactItem {
  return jobEvent(JOB_EVENT.updated, { ...job, pendingApplications: (job.pendingApplications ?? 0) + delta }, 'applications');
}

/** The job condition's part that holds while no accepted offer's money is being settled (names `#money`, values OFFER_SETTLING_VALUES). */
export const MONEY_NOT_REPRICING = '(attribute_not_exists(#money) OR NOT #money IN (:repricing, :toppingUp))';
/** The money states of an accepted offer's settlement: under the budget its refund, above it its charge. */
export const OFFER_SETTLING_VALUES = { ':repricing': 'repricing', ':toppingUp': 'topping_up' } as const;

/**
 * The job's applications may still change: it is open and no accepted offer's money is being
 * settled (`repricing`: the offers as they stood are what the settlement decides), as a
 * ConditionCheck for the transaction of an offer's own step.
 */
export function offersStillOpen(jobId: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.job(jobId),
      ConditionExpression: `#status = :open AND ${MONEY_NOT_REPRICING}`,
      ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
      ExpressionAttributeValues: { ':open': 'open', ...OFFER_SETTLING_VALUES },
    },
  };
}

/**
 * A pending application withdrawn (by its worker, or their account's deletion): deleted (the
 * pitch is the worker's), uncounted on the job while it is open and no accepted offer's money is
 * being settled, with the job's event, as the items of one transaction.
 */
export function withdrawalWrites(job: JobItem, application: Application): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName(),
        Key: keys.application(application.jobId, application.workerId),
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: keys.job(application.jobId),
        UpdateExpression: 'ADD pendingApplications :minusOne',
        ConditionExpression: `#status = :open AND pendingApplications > :zero AND ${MONEY_NOT_REPRICING}`,
        ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0, ':open': 'open', ...OFFER_SETTLING_VALUES },
      },
    },
    applicationsChanged(job, -1),
  ];
}

/**
 * The application's `pending -> status` step, as one item of a transaction; for the chosen
 * offer, on condition that its amount is still the one accepted (a change or a counter-offer's
 * acceptance racing the poster's click refuses it).
 */
function decideApplication(application: Application, status: Exclude<ApplicationStatus, 'pending'>, now: string, amount?: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.application(application.jobId, application.workerId),
      UpdateExpression: 'SET #status = :to, updatedAt = :now',
      ConditionExpression: `#status = :pending${amount !== undefined ? ' AND amount = :amount' : ''}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': status, ':now': now, ':pending': 'pending', ...(amount !== undefined ? { ':amount': amount } : {}) },
    },
  };
}

/** The chosen offer is still waiting at the amount read, as a ConditionCheck for the transaction that decides its acceptance. */
export function offerUnchanged(offer: Application): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.application(offer.jobId, offer.workerId),
      ConditionExpression: '#status = :pending AND amount = :amount',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':amount': offer.amount },
    },
  };
}

/** The worker's notice of the poster's decision on their application (or offer). */
export function decisionNotice(job: JobItem, application: Application, decision: 'accepted' | 'rejected'): StoredNotification {
  if (application.amount !== null) return offerDecisionNotice(job, application, decision);
  const accepted = decision === 'accepted';
  return notificationItem({
    userId: application.workerId,
    jobId: job.id,
    type: accepted ? 'application_accepted' : 'application_rejected',
    title: accepted ? MSG.applications.acceptedTitle : MSG.applications.rejectedTitle,
    message: accepted ? MSG.applications.acceptedMessage(job.title) : MSG.applications.rejectedMessage(job.title),
    metadata: { jobTitle: job.title },
  });
}

/** Decides one application pending -> rejected: the item's step, for a transaction. */
export const rejectionOf = (application: Application, now: string): TransactItem => decideApplication(application, 'rejected', now);

/**
 * What assigning a job to the chosen applicant writes besides the job (spec 2 §4): the chosen
 * application accepted (an offer at the amount read, `chosen.amount`), every other pending one
 * rejected, the job's event and each worker's notice. `assigned` is the job as the
 * transaction leaves it.
 */
export function assignmentWrites(assigned: JobItem, chosen: Application, others: readonly Application[], now: string): { items: TransactItem[]; notifications: StoredNotification[] } {
  const notifications = [decisionNotice(assigned, chosen, 'accepted'), ...others.map((other) => decisionNotice(assigned, other, 'rejected'))];
  return {
    items: [
      decideApplication(chosen, 'accepted', now, chosen.amount ?? undefined),
      ...others.map((other) => rejectionOf(other, now)),
      jobEvent(JOB_EVENT.updated, assigned, 'assigned'),
      ...notifications.flatMap(notificationWrites),
    ],
    notifications,
  };
}
