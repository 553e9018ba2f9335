import { randomUUID } from 'node:crypto';
import type { Application, ApplicationsOfJob, CardStepAnswer, WorkerApplication } from '../../shared/api.js';
import { canPerform, isMoneyPending } from '../../shared/job-process.js';
import { MAX_PENDING_APPLICATIONS } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { OFFER_TEXTS, offerPrice } from '../../shared/offers.js';
import { heldAmount } from '../../shared/money.js';
import type { ApplyRequest } from '../../shared/schemas/application.js';
import { batchGet } from '../lib/batch.js';
import { queryAll, tableName } from '../lib/db.js';
import { HttpError, conflict, forbidden, notFound } from '../lib/errors.js';
import { LostRace, TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { jobOfPoster, jobTransition, type JobChangeResult } from '../jobs/job-transitions.js';
import { getJob, workerSuccessRateOf, type JobItem } from '../jobs/jobs.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';
import { decisionPut, type MoneyDecision } from '../money/decision.js';
import { cardStepOf, carryOutForCaller, offerRefundDecision, refundLateTopUp, topUpChargeCall, topUpDecision } from '../money/job-money.js';
import { retrieveIntent } from '../money/stripe-moves.js';
import { offerNotice, offerRefusal } from './offers.js';
import {
  MONEY_NOT_REPRICING,
  OFFER_SETTLING_VALUES,
  applicationItem,
  applicationsChanged,
  applicationsOfJob,
  assignmentWrites,
  decisionNotice,
  getApplication,
  offerUnchanged,
  pendingApplication,
  rejectionOf,
  toApplication,
  withdrawalWrites,
} from './application-items.js';
import { toPublicProfile, type ProfileItem } from '../people/profiles.js';

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
  // An offer's acceptance is being paid out of the budget: the job is about to be assigned.
  if (isMoneyPending(job)) return conflict(MSG.applications.notAvailable);
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
          ConditionExpression: `#status = :open AND posterId <> :worker AND attribute_not_exists(deletingAt) AND attribute_not_exists(posterSuspended) AND (attribute_not_exists(pendingApplications) OR pendingApplications < :max) AND ${MONEY_NOT_REPRICING}`,
          ExpressionAttributeNames: { '#status': 'status', '#money': 'moneyState' },
          ExpressionAttributeValues: { ':one': 1, ':open': 'open', ':worker': worker.id, ':max': MAX_PENDING_APPLICATIONS, ...OFFER_SETTLING_VALUES },
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
 * The poster accepts one applicant (spec 2 §4): ONE transaction moves the job `open ->
 * assigned` to the worker, that application to accepted, every other pending one to rejected,
 * resets the pending count and tells each worker. The job's condition that its pending count
 * still equals the pending applications read means an application that arrived since fails
 * the transaction and the accept runs again with it included, so none is left pending on an
 * assigned job. Of two racing accepts exactly one commits; the other is told why on its rerun.
 *
 * An offer (issue 45) is accepted at its amount, `seenAmount` being the one the poster
 * confirmed: an offer changed since is refused, not accepted at a price nobody confirmed. One
 * under the budget moves the money first (shared/job-process.ts `acceptOffer`): the transaction
 * decides the refund of the difference (`held -> repricing`, the offers frozen as they stand),
 * and the executor's settlement of that refund assigns the job at the offer's price. Stripe
 * refusing the refund for good (a dashboard refund or a chargeback took the money first) hands
 * the money back with the job still open and nothing assigned. One above the budget charges the
 * difference to the poster's saved card first (`acceptOfferAbove`, `held -> topping_up`), the
 * card step where their bank asks (the same acceptance after it reads that charge), and the
 * charge's settlement assigns the job.
 */
export async function acceptApplication(jobId: string, posterId: string, workerId: string, seenAmount?: number): Promise<JobChangeResult | { cardStep: CardStepAnswer }> {
  const accepted = await retryWhileStale(async (): Promise<JobChangeResult | { decision: MoneyDecision<unknown> } | { cardStep: CardStepAnswer }> => {
    const job = await jobOfPoster(jobId, posterId);
    if (!canPerform('accept', job)) {
      // Another offer's acceptance is being paid out of the budget (repricing): that worker is the one accepted.
      throw conflict(job.workerId || isMoneyPending(job) ? MSG.applications.workerAlreadyAccepted : MSG.jobs.statusChanged);
    }
    const applications = await applicationsOfJob(jobId);
    // A racing accept may have committed between the two reads above.
    if (applications.some((a) => a.status === 'accepted')) throw conflict(MSG.applications.workerAlreadyAccepted);
    const chosen = await pendingApplication(jobId, workerId, applications);
    const offer = chosen.amount;
    if (offer !== null && seenAmount !== undefined && seenAmount !== offer) throw conflict(OFFER_TEXTS.offerChangedSinceShown);
    const others = applications.filter((a) => a.status === 'pending' && a.workerId !== workerId);
    const stillPending = { expression: 'pendingApplications = :seen', values: { ':seen': others.length + 1 } };

    if (offer !== null && offer !== job.payment) {
      const price = offerPrice(offer, job);
      if (price.charge > 0) {
        // The same offer's charge made before the card step, if any.
        const waiting = job.offerTopUp?.workerId === workerId && job.offerTopUp.amount === offer ? job.offerTopUp.intentId : undefined;
        const charge = await topUpChargeCall(job, waiting, price.charge, { offerWorkerId: workerId, offerAmount: String(offer) }, OFFER_TEXTS.noSavedCard);
        if ('cardStep' in charge) return { cardStep: cardStepOf(charge.cardStep, OFFER_TEXTS.cardNeeded) };
        const decision = topUpDecision(job, { offer: { workerId, amount: offer } }, price, charge.call);
        const { update } = jobTransition(job, 'acceptOfferAbove', { moneyDecisionId: decision.id }, { by: { posterId }, condition: stillPending });
        await transactWrite([decisionPut(decision), { Update: update }, offerUnchanged(chosen)]);
        return { decision };
      }
      // A refund in Stripe's dashboard may have given back so much that the difference is no longer held.
      if (price.refund > heldAmount(job)) throw conflict(OFFER_TEXTS.differenceNotHeld);
      const decision = await offerRefundDecision(job, chosen, price);
      const { update } = jobTransition(job, 'acceptOffer', { moneyDecisionId: decision.id }, { by: { posterId }, condition: stillPending });
      await transactWrite([decisionPut(decision), { Update: update }, offerUnchanged(chosen)]);
      return { decision };
    }

    const now = new Date().toISOString();
    const { updated, update } = jobTransition(job, 'accept', { workerId, pendingApplications: 0, assignedAt: now }, { by: { posterId }, condition: stillPending });
    const { items, notifications } = assignmentWrites(updated, chosen, others, now);
    await transactWrite([{ Update: update }, ...items]);
    return { job: updated, notifications };
  });
  if (!('decision' in accepted)) return accepted;
  // The poster waits for the difference's refund or charge: the job is assigned once it is made.
  const job = await carryOutForCaller(accepted.decision);
  // Not charged: the bank wants the poster first.
  if (job.status === 'open' && job.offerTopUp?.workerId === workerId) return { cardStep: cardStepOf(await retrieveIntent(job.offerTopUp.intentId), OFFER_TEXTS.cardNeeded) };
  return { job, notifications: [] };
}

/**
 * `payment_intent.succeeded` of an offer's charge above the budget (metadata.offerWorkerId): a
 * poster who finished the card step and left before accepting again still has the acceptance
 * finished while the job is open, its money held and the offer still pending at that amount;
 * otherwise the charge is refunded. False when it is already the job's.
 */
export async function settleOfferTopUpOfIntent(intentId: string, metadata: Record<string, string>): Promise<boolean> {
  const jobId = metadata.topUpForJob ?? '';
  const job = await getJob(jobId, { consistentRead: true, includeDeleting: true });
  if (job?.topUps?.some((charge) => charge.paymentIntentId === intentId)) return false;
  const waiting = job?.offerTopUp?.intentId === intentId ? job.offerTopUp : undefined;
  if (job && waiting && !job.deletingAt) {
    try {
      await acceptApplication(jobId, job.posterId, waiting.workerId, waiting.amount);
      return true;
    } catch (error) {
      // The offer changed or went, or the job moved: the charge goes back.
      if (!(error instanceof HttpError)) throw error;
    }
    const current = await getJob(jobId, { consistentRead: true });
    if (current?.topUps?.some((charge) => charge.paymentIntentId === intentId)) return true;
  }
  if (job && isMoneyPending(job)) throw new LostRace();
  await refundLateTopUp(job, jobId, await retrieveIntent(intentId), metadata);
  return true;
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
      rejectionOf(application, now),
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'ADD pendingApplications :minusOne',
          // Not while an accepted offer's money is settled: the offers as they stood are what it decides.
          ConditionExpression: `posterId = :poster AND pendingApplications > :zero AND ${MONEY_NOT_REPRICING}`,
          ExpressionAttributeNames: { '#money': 'moneyState' },
          ExpressionAttributeValues: { ':minusOne': -1, ':poster': posterId, ':zero': 0, ...OFFER_SETTLING_VALUES },
        },
      },
      applicationsChanged(job, -1),
      ...notificationWrites(notification),
    ]);
    return { application: { ...application, status: 'rejected', updatedAt: now }, notification };
  });
}

/**
 * The poster's applicants list: newest first, each with the worker's public profile (one
 * BatchGetItem) and success rate (one keys-only Query each: a handful of applicants).
 */
export async function listApplicants(jobId: string, posterId: string): Promise<ApplicationsOfJob> {
  await jobOfPoster(jobId, posterId);
  const applications = await applicationsOfJob(jobId);
  const [profiles, successRates] = await Promise.all([
    batchGet<ProfileItem>(applications.map((a) => keys.profile(a.workerId))),
    Promise.all(applications.map((a) => workerSuccessRateOf(a.workerId))),
  ]);
  const items = applications.flatMap((application, i) => {
    const profile = profiles[i];
    return profile ? [{ application, worker: toPublicProfile(profile), successRate: successRates[i] ?? null }] : [];
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
 * A deleted account's pending applications on open jobs are withdrawn (withdrawalWrites), each
 * in one transaction. Answers how many it withdrew; run again, none.
 */
export async function withdrawPendingApplications(workerId: string): Promise<number> {
  const pending = (await listWorkerApplications(workerId)).filter(({ application, job }) => application.status === 'pending' && job.status === 'open');
  for (const { application } of pending) {
    await retryWhileStale(async () => {
      const job = await getJob(application.jobId);
      // An accepted offer's money is being settled with the offers as they stand: the deletion's sweep withdraws it later, if it is still pending.
      if (!job || isMoneyPending(job)) return;
      await transactWrite(withdrawalWrites(job, application));
    });
  }
  return pending.length;
}
