import type { Application } from '../../shared/api.js';
import { isMoneyPending } from '../../shared/job-process.js';
import { formatCents } from '../../shared/money.js';
import { MSG } from '../../shared/messages.js';
import { OFFER_TEXTS, offerAmountProblem } from '../../shared/offers.js';
import type { ChangeOfferRequest, CounterAnswer } from '../../shared/schemas/application.js';
import { tableName } from '../lib/db.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import { retryWhileStale, transactOrConflict, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { jobOfPoster } from '../jobs/job-transitions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import type { ProfileItem } from '../people/profiles.js';
import { applicationsChanged, offersStillOpen, pendingApplication, withdrawalWrites } from './application-items.js';
import { offerNotice } from './offers.js';

/**
 * What happens to an offer while it waits (issue 45, shared/offers.ts): the worker changes or
 * withdraws it, the poster counters it once, the worker accepts or declines the counter. Each is
 * one transaction on condition that the offer still waits (and, for each step, that the
 * counter is where the step expects it) and that the job is open with no accepted offer's money
 * being settled, so a step racing the poster's Accept Offer either lands before it — and the
 * accept, which names the amount it saw, is refused — or is refused.
 */

/** The worker's pending offer on a job open to offers that still takes offers. */
async function ownPendingOffer(jobId: string, workerId: string): Promise<{ job: JobItem; offer: Application }> {
  const [job, offer] = await Promise.all([getJob(jobId, { consistentRead: true }), pendingApplication(jobId, workerId)]);
  if (!job) throw notFound(MSG.jobs.notFound);
  if (offer.amount === null) throw badRequest(OFFER_TEXTS.notAnOffer);
  if (job.status !== 'open') throw conflict(MSG.applications.notAvailable);
  // An offer's acceptance is being paid out of the budget: the offers stand as they are until it is.
  if (isMoneyPending(job)) throw conflict(MSG.payments.moneyDecisionUnderWay);
  return { job, offer };
}

/** The names a condition on the counter-offer uses. */
const COUNTER = { '#counter': 'counter' };
const COUNTER_STATUS = { ...COUNTER, '#counterStatus': 'status' };

/** The offer's item, updated on condition that it still waits and `condition` (with the attribute `names` it uses) holds. */
function offerUpdate(offer: Application, set: Record<string, unknown>, condition: string, names: Record<string, string>): TransactItem {
  const fields = Object.entries(set);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.application(offer.jobId, offer.workerId),
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}, updatedAt = :now`,
      ConditionExpression: `#status = :pending AND ${condition}`,
      ExpressionAttributeNames: { '#status': 'status', ...names, ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])) },
      ExpressionAttributeValues: { ':pending': 'pending', ':now': new Date().toISOString(), ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])) },
    },
  };
}

/** PUT /jobs/{id}/applications/mine: the worker's offer as it now stands; not while a counter-offer waits for their answer. */
export async function changeOffer(jobId: string, worker: ProfileItem, request: ChangeOfferRequest): Promise<Application> {
  return retryWhileStale(async () => {
    const { job, offer } = await ownPendingOffer(jobId, worker.id);
    const problem = offerAmountProblem(request.amount);
    if (problem) throw badRequest(problem);
    if (offer.counter?.status === 'pending') throw conflict(OFFER_TEXTS.counterWaiting);
    const changed = { amount: request.amount, message: request.message, availability: request.availability };
    await transactOrConflict(
      [
        offerUpdate(offer, changed, '(attribute_not_exists(#counter) OR #counter.#counterStatus <> :pending)', COUNTER_STATUS),
        offersStillOpen(jobId),
        applicationsChanged(job, 0),
        ...notificationWrites(offerNotice(job, worker, 'changed', request.amount)),
      ],
      MSG.applications.notPending,
    );
    return { ...offer, ...changed, updatedAt: new Date().toISOString() };
  });
}

/** DELETE /jobs/{id}/applications/mine: the worker takes their offer back (it is theirs: deleted), uncounted on the job, the poster told. */
export async function withdrawOffer(jobId: string, worker: ProfileItem): Promise<void> {
  await retryWhileStale(async () => {
    const { job, offer } = await ownPendingOffer(jobId, worker.id);
    await transactOrConflict(
      [
        ...withdrawalWrites(job, offer),
        ...notificationWrites(offerNotice(job, worker, 'withdrawn')),
      ],
      MSG.applications.notPending,
    );
  });
}

/** POST /jobs/{id}/applications/{workerId}/counter: the poster's one counter-offer on a waiting offer. */
export async function counterOffer(jobId: string, posterId: string, workerId: string, amount: number): Promise<Application> {
  return retryWhileStale(async () => {
    const job = await jobOfPoster(jobId, posterId);
    if (job.status !== 'open') throw conflict(MSG.jobs.statusChanged);
    if (isMoneyPending(job)) throw conflict(MSG.payments.moneyDecisionUnderWay);
    const offer = await pendingApplication(jobId, workerId);
    if (offer.amount === null) throw badRequest(OFFER_TEXTS.notAnOffer);
    if (offer.counter) throw conflict(OFFER_TEXTS.counterAlreadyMade);
    const problem = offerAmountProblem(amount);
    if (problem) throw badRequest(problem);
    if (amount === offer.amount) throw badRequest(OFFER_TEXTS.counterSameAmount);
    const counter = { amount, status: 'pending' as const, at: new Date().toISOString() };
    await transactOrConflict(
      [
        offerUpdate(offer, { counter }, 'attribute_not_exists(#counter)', COUNTER),
        offersStillOpen(jobId),
        applicationsChanged(job, 0),
        ...notificationWrites(
          notificationItem({ userId: workerId, jobId, type: 'counter_offer', title: OFFER_TEXTS.counterTitle, message: OFFER_TEXTS.counterMessage(formatCents(amount), job.title), metadata: { jobTitle: job.title } }),
        ),
      ],
      OFFER_TEXTS.counterAlreadyMade,
    );
    return { ...offer, counter, updatedAt: counter.at };
  });
}

/** POST /jobs/{id}/applications/mine/counter: the worker takes the poster's counter-offer (their offer becomes its amount) or declines it (their offer stands). */
export async function answerCounter(jobId: string, worker: ProfileItem, answer: CounterAnswer): Promise<Application> {
  return retryWhileStale(async () => {
    const { job, offer } = await ownPendingOffer(jobId, worker.id);
    const counter = offer.counter;
    if (counter?.status !== 'pending') throw conflict(OFFER_TEXTS.noCounter);
    const accepted = answer === 'accept';
    const answered = { ...counter, status: accepted ? ('accepted' as const) : ('declined' as const) };
    const amount = accepted ? counter.amount : (offer.amount ?? counter.amount);
    await transactOrConflict(
      [
        offerUpdate(offer, { counter: answered, amount }, '#counter.#counterStatus = :pending', COUNTER_STATUS),
        offersStillOpen(jobId),
        applicationsChanged(job, 0),
        ...notificationWrites(
          notificationItem({
            userId: job.posterId,
            jobId,
            type: 'counter_answered',
            title: accepted ? OFFER_TEXTS.counterAcceptedTitle : OFFER_TEXTS.counterDeclinedTitle,
            message: accepted ? OFFER_TEXTS.counterAcceptedMessage(worker.name, formatCents(counter.amount), job.title) : OFFER_TEXTS.counterDeclinedMessage(worker.name, job.title),
            metadata: { worker_id: worker.id, worker_name: worker.name, jobTitle: job.title },
          }),
        ),
      ],
      OFFER_TEXTS.noCounter,
    );
    return { ...offer, amount, counter: answered, updatedAt: new Date().toISOString() };
  });
}
