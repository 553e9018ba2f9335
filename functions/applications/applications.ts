import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Application, ApplicationStatus, ApplicationsOfJob, WorkerApplication } from '../../shared/api.js';
import { canPerform } from '../../shared/job-process.js';
import { MAX_PENDING_APPLICATIONS } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { OFFER_TEXTS, offerPrice } from '../../shared/offers.js';
import { formatCents } from '../../shared/money.js';
import type { ApplyRequest } from '../../shared/schemas/application.js';
import { batchGet } from '../lib/batch.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { conflict, forbidden, notFound, type HttpError } from '../lib/errors.js';
import { TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { jobOfPoster, jobTransition, type JobChangeResult } from '../jobs/job-transitions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { JOB_EVENT } from '../routes.js';
import { jobEvent } from '../jobs/job-events.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';
import { carryOutQuietly } from '../money/executor.js';
import { decisionPut } from '../money/decision.js';
import { offerRefundDecision } from '../money/job-money.js';
import { offerDecisionNotice, offerNotice, offerRefusal } from './offers.js';
import { toPublicProfile, type ProfileItem } from '../people/profiles.js';

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

function applicationItem({ amount, availability, counter, ...application }: Application) {
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
async function applicationsOfJob(jobId: string): Promise<Application[]> {
  const found = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':prefix': keys.applicationPrefix() },
    // Accepting must see every pending application, including one written a moment ago.
    ConsistentRead: true,
  });
  return found.map(toApplication).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * The job event of an application change (one applied, withdrew or was decided; an offer
 * changed: 0), for its transaction: the pending count is the one read before plus this change. Racing applications may each report the same count; screens
 * showing it re-read the job on the event ('applications'), so the event need only tell them.
 */
export function applicationsChanged(job: JobItem, delta: -1 | 0 | 1): TransactItem {
  return jobEvent(JOB_EVENT.updated, { ...job, pendingApplications: (job.pendingApplications ?? 0) + delta }, 'applications');
}

/**
 * Why `workerId` may not apply to `job` as it stands, if they may not. The read state only
 * chooses the message: the limit itself is the transaction's condition.
 */
function applicationRefusal(job: JobItem, worker: ProfileItem): HttpError | undefined {
  if (job.posterId === worker.id) return forbidden(MSG.applications.ownJob);
  // A suspended poster's open job left the feed (DECISIONS.md "Suspension"); a saved link or an
  // open tab must not reach it either.
  if (job.posterSuspended) return conflict(MSG.jobs.noLongerAvailable);
  if (job.status !== 'open') return conflict(MSG.applications.notAvailable);
  if ((job.pendingApplications ?? 0) >= MAX_PENDING_APPLICATIONS) return conflict(MSG.applications.full);
  if (job.verifiedWorkersOnly && worker.identityStatus !== 'verified') return forbidden(MSG.identity.applyRefused);
  return undefined;
}

/**
 * A job for ID-verified workers only (issue 47): the worker's verification, checked in the
 * application's own transaction, so a revocation landing meanwhile refuses it.
 */
function verifiedWorkerCheck(job: JobItem, workerId: string): TransactItem[] {
  if (!job.verifiedWorkersOnly) return [];
  return [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.profile(workerId),
        ConditionExpression: 'identityStatus = :verified',
        ExpressionAttributeValues: { ':verified': 'verified' },
      },
    },
  ];
}

/** The poster's notice of a new applicant (issue 25), leading to the job's applicants. */
function newApplicantNotice(job: JobItem, worker: ProfileItem): StoredNotification {
  return notificationItem({
    userId: job.posterId,
    jobId: job.id,
    type: 'new_applicant',
    title: MSG.applications.newApplicantTitle,
    message: MSG.applications.newApplicantMessage(worker.name, job.title),
    metadata: { worker_id: worker.id, worker_name: worker.name, jobTitle: job.title },
  });
}

/**
 * A worker applies (spec 2 §4, §5): one transaction puts the application, on a key that exists
 * once per worker and job, and counts it on the job, on condition that the job is open, not
 * the worker's own, not hidden by its poster's suspension and has fewer than 4 pending, and
 * tells the poster (so a refused or repeated application tells nobody). A refused transaction
 * is explained from a fresh read; if that read shows nothing in the way, the state moved and
 * it runs again.
 */
export async function applyToJob(jobId: string, worker: ProfileItem, request: ApplyRequest): Promise<Application> {
  const { message, amount, availability } = request;
  return retryWhileStale(async () => {
    const [job, existing] = await Promise.all([getJob(jobId, { consistentRead: true }), getApplication(jobId, worker.id)]);
    // A draft awaiting payment is invisible to everyone but its poster.
    if (!job || job.status === 'awaiting_payment') throw notFound(MSG.jobs.notFound);
    if (existing) throw conflict(MSG.applications.alreadyApplied);
    const refusal = applicationRefusal(job, worker) ?? offerRefusal(job, amount);
    if (refusal) throw refusal;

    const now = new Date().toISOString();
    const offer = job.openToOffers && amount !== undefined;
    const application: Application = {
      id: randomUUID(),
      jobId,
      workerId: worker.id,
      posterId: job.posterId,
      status: 'pending',
      message,
      amount: offer ? amount : null,
      availability: offer ? availability : null,
      counter: null,
      createdAt: now,
      updatedAt: now,
    };
    const items: TransactItem[] = [
      { Put: { TableName: tableName(), Item: applicationItem(application), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'ADD pendingApplications :one',
          ConditionExpression:
            '#status = :open AND posterId <> :worker AND attribute_not_exists(deletingAt) AND attribute_not_exists(posterSuspended) AND (attribute_not_exists(pendingApplications) OR pendingApplications < :max)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':one': 1, ':open': 'open', ':worker': worker.id, ':max': MAX_PENDING_APPLICATIONS },
        },
      },
      applicationsChanged(job, 1),
      ...notificationWrites(offer ? offerNotice(job, worker, 'received', amount) : newApplicantNotice(job, worker)),
      ...verifiedWorkerCheck(job, worker.id),
    ];
    try {
      await transactWrite(items);
    } catch (error) {
      if (error instanceof TransactionRefused && error.failed(0)) throw conflict(MSG.applications.alreadyApplied);
      // The verification check is the last item: it went (revoked, or no longer valid) while the worker applied.
      if (error instanceof TransactionRefused && job.verifiedWorkersOnly && error.failed(items.length - 1)) throw forbidden(MSG.identity.applyRefused);
      throw error;
    }
    return application;
  });
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

function decisionNotice(job: JobItem, application: Application, decision: 'accepted' | 'rejected'): StoredNotification {
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

/** A pending application of the job, or the refusal that explains why there is none. */
export async function pendingApplication(jobId: string, workerId: string, applications?: Application[]): Promise<Application> {
  const application = applications ? applications.find((a) => a.workerId === workerId) : await getApplication(jobId, workerId);
  if (!application) throw notFound(MSG.applications.notFound);
  if (application.status !== 'pending') throw conflict(MSG.applications.notPending);
  return application;
}

/**
 * The poster accepts one applicant (spec 2 §4): ONE transaction moves the job `open ->
 * assigned` to the worker, that application to accepted, every other pending one to rejected,
 * resets the pending count and tells each worker. The job's condition that its pending count
 * still equals the pending applications read means an application that arrived since fails
 * the transaction and the accept runs again with it included, so none is left pending on an
 * assigned job. Of two racing accepts exactly one commits; the other is told why on its rerun.
 *
 * An offer (issue 45) is accepted at its amount, `seenAmount` being the one the poster
 * confirmed: an offer changed since is refused, not accepted at a price nobody confirmed. The
 * job takes the offer's price; under the budget, the same transaction decides the difference's
 * refund (shared/job-process.ts `acceptOffer`), which the executor then makes.
 */
export async function acceptApplication(jobId: string, posterId: string, workerId: string, seenAmount?: number): Promise<JobChangeResult> {
  const accepted = await retryWhileStale(async () => {
    const job = await jobOfPoster(jobId, posterId);
    if (!canPerform('accept', job)) {
      throw conflict(job.workerId ? MSG.applications.workerAlreadyAccepted : MSG.jobs.statusChanged);
    }
    const applications = await applicationsOfJob(jobId);
    // A racing accept may have committed between the two reads above.
    if (applications.some((a) => a.status === 'accepted')) throw conflict(MSG.applications.workerAlreadyAccepted);
    const chosen = await pendingApplication(jobId, workerId, applications);
    const offer = chosen.amount;
    if (offer !== null && seenAmount !== undefined && seenAmount !== offer) throw conflict(OFFER_TEXTS.offerChangedSinceShown);
    const others = applications.filter((a) => a.status === 'pending' && a.workerId !== workerId);
    const now = new Date().toISOString();
    const price = offer !== null && offer !== job.payment ? offerPrice(offer, job) : undefined;
    if (price && price.refund <= 0) throw conflict(OFFER_TEXTS.amountAboveBudget(formatCents(job.payment)));
    const decision = price ? offerRefundDecision(job, workerId, price.refund) : undefined;
    const { updated, update } = jobTransition(
      job,
      decision ? 'acceptOffer' : 'accept',
      {
        workerId,
        pendingApplications: 0,
        assignedAt: now,
        ...(price && decision ? { payment: price.payment, platformFee: price.platformFee, postedAmount: price.postedAmount, moneyDecisionId: decision.id } : {}),
      },
      { by: { posterId }, condition: { expression: 'pendingApplications = :seen', values: { ':seen': others.length + 1 } } },
    );
    const notifications = [decisionNotice(updated, chosen, 'accepted'), ...others.map((a) => decisionNotice(job, a, 'rejected'))];
    await transactWrite([
      ...(decision ? [decisionPut(decision)] : []),
      { Update: update },
      decideApplication(chosen, 'accepted', now, offer ?? undefined),
      ...others.map((a) => decideApplication(a, 'rejected', now)),
      jobEvent(JOB_EVENT.updated, updated, 'assigned'),
      ...notifications.flatMap(notificationWrites),
    ]);
    return { result: { job: updated, notifications }, decision };
  });
  // The job is assigned; the difference's refund goes on without the poster (a failure leaves it to the retry schedule).
  if (accepted.decision) await carryOutQuietly(accepted.decision);
  return accepted.result;
}

/** The poster rejects one pending application: it is decided, uncounted and the worker told, at once. */
export async function rejectApplication(
  jobId: string,
  posterId: string,
  workerId: string,
): Promise<{ application: Application; notification: StoredNotification }> {
  return retryWhileStale(async () => {
    const job = await jobOfPoster(jobId, posterId);
    const application = await pendingApplication(jobId, workerId);
    const now = new Date().toISOString();
    const notification = decisionNotice(job, application, 'rejected');
    await transactWrite([
      decideApplication(application, 'rejected', now),
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'ADD pendingApplications :minusOne',
          ConditionExpression: 'posterId = :poster AND pendingApplications > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':poster': posterId, ':zero': 0 },
        },
      },
      applicationsChanged(job, -1),
      ...notificationWrites(notification),
    ]);
    return { application: { ...application, status: 'rejected', updatedAt: now }, notification };
  });
}

/** The poster's applicants list: newest first, each with the worker's public profile (one BatchGetItem). */
export async function listApplicants(jobId: string, posterId: string): Promise<ApplicationsOfJob> {
  await jobOfPoster(jobId, posterId);
  const applications = await applicationsOfJob(jobId);
  const profiles = await batchGet<ProfileItem>(applications.map((a) => keys.profile(a.workerId)));
  const items = applications.flatMap((application, i) => {
    const profile = profiles[i];
    return profile ? [{ application, worker: toPublicProfile(profile) }] : [];
  });
  return { items, total: applications.length, pending: applications.filter((a) => a.status === 'pending').length };
}

/** The caller's own application to a job (the job page's "already applied" notice). */
export async function ownApplication(jobId: string, workerId: string): Promise<Application> {
  const application = await getApplication(jobId, workerId);
  if (!application) throw notFound(MSG.applications.notFound);
  return application;
}

/**
 * A worker's applications, newest first, with their jobs (GSI1, then one BatchGetItem). The
 * dashboard's banner picks those accepted (`updatedAt`) in the last 24 hours.
 */
export async function listWorkerApplications(workerId: string): Promise<WorkerApplication[]> {
  const applications = (
    await queryAll<Record<string, unknown>>({
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.applicationsOfWorker(workerId) },
      ScanIndexForward: false,
    })
  ).map(toApplication);
  const jobs = await batchGet<JobItem>(applications.map((a) => keys.job(a.jobId)));
  return applications.flatMap((application, i) => {
    const job = jobs[i];
    // A job being deleted takes its applications with it; until then it is gone for readers.
    return job && !job.deletingAt ? [{ application, job: { id: job.id, title: job.title, status: job.status } }] : [];
  });
}

/**
 * A deleted account's pending applications on open jobs are withdrawn: each deleted (the
 * worker's pitch is theirs) and uncounted on its job, with the job's event, in one
 * transaction. Answers how many it withdrew; run again, none.
 */
export async function withdrawPendingApplications(workerId: string): Promise<number> {
  const pending = (await listWorkerApplications(workerId)).filter(({ application, job }) => application.status === 'pending' && job.status === 'open');
  for (const { application } of pending) {
    await retryWhileStale(async () => {
      const job = await getJob(application.jobId);
      if (!job) return;
      await transactWrite([
        {
          Delete: {
            TableName: tableName(),
            Key: keys.application(application.jobId, workerId),
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
            ConditionExpression: 'pendingApplications > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          },
        },
        applicationsChanged(job, -1),
      ]);
    });
  }
  return pending.length;
}
