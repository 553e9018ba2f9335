import type { AcceptAnswer, Application, ApplicationsOfJob, JobQuestion, JobSummary, PendingPriceChange, PriceChange, PriceChangeAnswer, WorkerApplication } from '../../../shared/api.js';
import { answerQuestionSchema, askQuestionSchema } from '../../../shared/schemas/question.js';
import { answerQuestion, askQuestion, listQuestions } from '../questions.js';
import { MSG } from '../../../shared/messages.js';
import { acceptOfferSchema, applySchema, changeOfferSchema, counterAnswerSchema, counterOfferSchema, declineCompletionSchema, pauseAutoReleaseSchema } from '../../../shared/schemas/application.js';
import { acceptApplication, applyToJob, listApplicants, listWorkerApplications, ownApplication, rejectApplication } from '../applications.js';
import { answerCounter, changeOffer, counterOffer, withdrawOffer } from '../offer-changes.js';
import { approvePriceChange, declinePriceChange, listPriceChanges, requestPriceChange, withdrawPriceChange } from '../price-changes.js';
import { approvePriceChangeSchema, declinePriceChangeSchema, requestPriceChangeSchema } from '../../../shared/schemas/price-change.js';
import { completeJob, declineCompletion } from '../../jobs/job-completion.js';
import type { JobChangeResult } from '../../jobs/job-transitions.js';
import { toJobSummary, toPartyJob } from '../../jobs/jobs.js';
import { pauseAutoRelease, resumeAutoRelease } from '../../money/auto-release.js';
import { requirePaymentAccount } from '../../money/payment-accounts.js';
import { getProfile, type ProfileItem } from '../../people/profiles.js';
import { forbidden } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';

/**
 * Applying is for workers (spec 2 §6) with a complete payment account, so that they can be
 * paid (DECISIONS.md "Accounts"); the role comes from the profile, not from the token.
 */
async function requireApplicant(userId: string): Promise<ProfileItem> {
  const profile = await getProfile(userId);
  if (!profile) throw forbidden(MSG.auth.accountProfileNotFound);
  if (profile.role !== 'worker') throw forbidden(MSG.applications.onlyWorkers);
  requirePaymentAccount(profile, MSG.payments.accountNeededToApply);
  return profile;
}

/** The changed job's summary (its events went out with the change, through the outbox). */
const summaryOf = ({ job }: JobChangeResult): JobSummary => toJobSummary(job);

export const handler = routeGroup('applications', {
  'POST /jobs/{id}/applications': async (request) => {
    const worker = await requireApplicant(request.caller.userId);
    const application: Application = await applyToJob(request.params.id ?? '', worker, request.body(applySchema));
    return { status: 201, body: application };
  },

  /** The worker changes their waiting offer (issue 45). */
  'PUT /jobs/{id}/applications/mine': async (request): Promise<Application> => {
    const worker = await requireApplicant(request.caller.userId);
    return changeOffer(request.params.id ?? '', worker, request.body(changeOfferSchema));
  },

  /** The worker withdraws their waiting offer. */
  'DELETE /jobs/{id}/applications/mine': async (request) => {
    await withdrawOffer(request.params.id ?? '', await requireApplicant(request.caller.userId));
    return { status: 204 };
  },

  /** The worker accepts or declines the poster's counter-offer. */
  'POST /jobs/{id}/applications/mine/counter': async (request): Promise<Application> => {
    const worker = await requireApplicant(request.caller.userId);
    return answerCounter(request.params.id ?? '', worker, request.body(counterAnswerSchema).answer);
  },

  /** The poster's one counter-offer on a waiting offer. */
  'POST /jobs/{id}/applications/{workerId}/counter': async (request): Promise<Application> =>
    counterOffer(request.params.id ?? '', request.caller.userId, request.params.workerId ?? '', request.body(counterOfferSchema).amount),

  /** The poster's Applications tab: applicants newest first with their profiles, and the counts. */
  'GET /jobs/{id}/applications': async ({ params, caller }): Promise<ApplicationsOfJob> => listApplicants(params.id ?? '', caller.userId),

  /** The worker's own application to the job (the "already applied" notice), or 404. */
  'GET /jobs/{id}/applications/mine': async ({ params, caller }): Promise<Application> => ownApplication(params.id ?? '', caller.userId),

  /** An offer is accepted at the amount the poster confirmed (`amount`); an application without one as it is. */
  'POST /jobs/{id}/applications/{workerId}/accept': async (request): Promise<AcceptAnswer> => {
    const accepted = await acceptApplication(request.params.id ?? '', request.caller.userId, request.params.workerId ?? '', request.body(acceptOfferSchema).amount);
    // Above the budget, the poster's bank may want them for the difference's charge first.
    return 'cardStep' in accepted ? accepted.cardStep : summaryOf(accepted);
  },

  'POST /jobs/{id}/applications/{workerId}/reject': async ({ params, caller }): Promise<Application> => {
    const { application } = await rejectApplication(params.id ?? '', caller.userId, params.workerId ?? '');
    return application;
  },

  'POST /jobs/{id}/complete': async ({ params, caller }) => summaryOf(await completeJob(params.id ?? '', caller.userId)),

  'POST /jobs/{id}/decline-completion': async (request) => {
    const { reason } = request.body(declineCompletionSchema);
    return summaryOf(await declineCompletion(request.params.id ?? '', request.caller.userId, reason));
  },

  /** The poster pauses the auto-release of a completed job, with a reason the worker sees (DECISIONS.md "Wave 3"). */
  'POST /jobs/{id}/auto-release/pause': async (request) => {
    const { reason } = request.body(pauseAutoReleaseSchema);
    return toPartyJob(await pauseAutoRelease(request.params.id ?? '', request.caller.userId, reason));
  },

  'POST /jobs/{id}/auto-release/resume': async ({ params, caller }) => toPartyJob(await resumeAutoRelease(params.id ?? '', caller.userId)),

  /** The job's public questions and answers, newest first (issue 45). */
  'GET /jobs/{id}/questions': async ({ params, caller }): Promise<{ items: JobQuestion[] }> => listQuestions(params.id ?? '', caller.userId),

  /** A worker asks in public on an open job. */
  'POST /jobs/{id}/questions': async (request) => {
    const asker = await getProfile(request.caller.userId);
    if (!asker) throw forbidden(MSG.auth.accountProfileNotFound);
    return { status: 201, body: await askQuestion(request.params.id ?? '', asker, request.body(askQuestionSchema).text) };
  },

  /** The job's poster answers a question once. */
  'POST /jobs/{id}/questions/{questionId}/answer': async (request): Promise<JobQuestion> =>
    answerQuestion(request.params.id ?? '', request.caller.userId, request.params.questionId ?? '', request.body(answerQuestionSchema).answer),

  /** The assigned worker asks for a new price, with a reason (issue 45). */
  'POST /jobs/{id}/price-change': async (request) => {
    const worker = await getProfile(request.caller.userId);
    if (!worker) throw forbidden(MSG.auth.accountProfileNotFound);
    const waiting: PendingPriceChange = await requestPriceChange(request.params.id ?? '', worker, request.body(requestPriceChangeSchema));
    return { status: 201, body: waiting };
  },

  /** The worker withdraws their waiting request. */
  'DELETE /jobs/{id}/price-change': async ({ params, caller }) => {
    await withdrawPriceChange(params.id ?? '', caller.userId);
    return { status: 204 };
  },

  /** The poster approves the amount they were shown: the difference is refunded before the job takes the price. */
  'POST /jobs/{id}/price-change/approve': async (request): Promise<PriceChangeAnswer> =>
    approvePriceChange(request.params.id ?? '', request.caller.userId, request.body(approvePriceChangeSchema).amount),

  'POST /jobs/{id}/price-change/decline': async (request) => {
    await declinePriceChange(request.params.id ?? '', request.caller.userId, request.body(declinePriceChangeSchema).reason);
    return { status: 204 };
  },

  /** The job's price changes, newest first: its poster, the worker who asked, and the admin. */
  'GET /jobs/{id}/price-changes': async ({ params, caller }): Promise<{ items: PriceChange[] }> => listPriceChanges(params.id ?? '', caller.userId, caller.isAdmin),

  /** The worker dashboard: own applications newest first, with job titles (and the 24-hour banner). */
  'GET /me/applications': async ({ caller }): Promise<{ items: WorkerApplication[] }> => ({ items: await listWorkerApplications(caller.userId) }),
});
