import type { Application } from '../../shared/api.js';
import { formatCents } from '../../shared/money.js';
import { OFFER_TEXTS, offerAmountProblem } from '../../shared/offers.js';
import { badRequest, type HttpError } from '../lib/errors.js';
import type { JobItem } from '../jobs/jobs.js';
import { notificationItem, type StoredNotification } from '../notifications/notifications.js';
import type { ProfileItem } from '../people/profiles.js';

/**
 * The rules and notices of offers (issue 45, shared/offers.ts) that applying and accepting
 * share with the offer's own changes (offer-changes.ts).
 */

/** Why `amount` may not be offered on `job`: required on a job open to offers, refused on a fixed-price one, within the budget. */
export function offerRefusal(job: JobItem, amount: number | undefined): HttpError | undefined {
  if (!job.openToOffers) return amount === undefined ? undefined : badRequest(OFFER_TEXTS.notOpenToOffers);
  if (amount === undefined) return badRequest(OFFER_TEXTS.amountRequired);
  const problem = offerAmountProblem(amount);
  return problem ? badRequest(problem) : undefined;
}

/** The poster's notice of an offer made, changed or withdrawn, leading to the job's applicants. */
export function offerNotice(job: JobItem, worker: Pick<ProfileItem, 'id' | 'name'>, what: 'received' | 'changed' | 'withdrawn', amount?: number): StoredNotification {
  const money = formatCents(amount ?? 0);
  const [type, title, message] =
    what === 'received'
      ? (['offer_received', OFFER_TEXTS.receivedTitle, OFFER_TEXTS.receivedMessage(worker.name, money, job.title)] as const)
      : what === 'changed'
        ? (['offer_changed', OFFER_TEXTS.changedTitle, OFFER_TEXTS.changedMessage(worker.name, money, job.title)] as const)
        : (['offer_changed', OFFER_TEXTS.withdrawnTitle, OFFER_TEXTS.withdrawnMessage(worker.name, job.title)] as const);
  return notificationItem({ userId: job.posterId, jobId: job.id, type, title, message, metadata: { worker_id: worker.id, worker_name: worker.name, jobTitle: job.title } });
}

/** The worker's notice that their offer was accepted (at its amount) or not chosen. */
export function offerDecisionNotice(job: JobItem, application: Application, decision: 'accepted' | 'rejected'): StoredNotification {
  const accepted = decision === 'accepted';
  return notificationItem({
    userId: application.workerId,
    jobId: job.id,
    type: accepted ? 'offer_accepted' : 'offer_declined',
    title: accepted ? OFFER_TEXTS.acceptedTitle : OFFER_TEXTS.declinedTitle,
    message: accepted ? OFFER_TEXTS.acceptedMessage(formatCents(application.amount ?? job.payment), job.title) : OFFER_TEXTS.declinedMessage(job.title),
    metadata: { jobTitle: job.title },
  });
}
