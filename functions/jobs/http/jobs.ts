import { adminReasonSchema } from '../../../shared/schemas/admin.js';
import type { JobSummary } from '../../../shared/api.js';
import { MSG } from '../../../shared/messages.js';
import { createJobSchema } from '../../../shared/schemas/job.js';
import { requirePostableCategory } from '../../admin/categories.js';
import { cancelJob, deleteJob, editJob, unassignJob, type JobActor } from '../job-management.js';
import { startJobPayment } from '../../money/job-payments.js';
import { getJob, listOwnJobs, toJobDetail, toJobSummary } from '../jobs.js';
import { requirePaymentAccount } from '../../money/payment-accounts.js';
import { getProfile, toPublicProfile, type ProfileItem } from '../../people/profiles.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { deleteImages, verifyUploadedImage } from '../../lib/images.js';
import { routeGroup, type SignedInRequest } from '../../lib/http.js';

/** Every image key must be the caller's own verified upload; already attached keys are trusted. */
async function verifyJobImages(userId: string, imageKeys: string[], alreadyAttached: string[] = []): Promise<void> {
  await Promise.all(
    imageKeys.map((key, i) => (alreadyAttached.includes(key) ? undefined : verifyUploadedImage(userId, 'job', key, `Image ${i + 1}`))),
  );
}

/** The caller as the actor of a cancel or delete: the admin must give a reason (`missingReason` when none). */
function jobActor(request: SignedInRequest, missingReason: string): JobActor {
  const { userId, isAdmin } = request.caller;
  return isAdmin ? { userId, isAdmin, reason: request.body(adminReasonSchema(missingReason)).reason } : { userId, isAdmin };
}

/** Only posters create jobs (spec 1 §6); the role comes from the profile. */
async function requirePoster({ caller }: SignedInRequest): Promise<ProfileItem> {
  const profile = await getProfile(caller.userId);
  if (!profile) throw forbidden(MSG.auth.accountProfileNotFound);
  if (profile.role !== 'poster') throw forbidden(MSG.jobs.onlyPostersCanCreate);
  return profile;
}

export const handler = routeGroup('jobs', {
  'GET /jobs/{id}': async ({ params, caller }) => {
    const job = await getJob(params.id ?? '');
    if (!job || (job.status === 'awaiting_payment' && job.posterId !== caller.userId)) throw notFound(MSG.jobs.notFound);
    const poster = await getProfile(job.posterId);
    return toJobDetail(job, caller.userId, poster ? toPublicProfile(poster) : null, caller.isAdmin);
  },

  /**
   * Pay to post: the job is saved as a draft with a PaymentIntent for payment + fee; it opens
   * when the payment succeeds (POST /payments/confirm or the webhook, whichever comes first).
   */
  'POST /jobs': async (request) => {
    const poster = await requirePoster(request);
    requirePaymentAccount(poster, MSG.payments.accountNeededToPost);
    const body = request.body(createJobSchema);
    await requirePostableCategory(body.category);
    await verifyJobImages(request.caller.userId, body.images);
    return { status: 201, body: await startJobPayment(body, request.caller.userId) };
  },

  /** The poster's 'Edit Job' form: the whole form again, only while open. */
  'PUT /jobs/{id}': async (request) => {
    const body = request.body(createJobSchema);
    const { job, removedImageKeys } = await editJob(request.params.id ?? '', request.caller.userId, body, (attached) =>
      verifyJobImages(request.caller.userId, body.images, attached),
    );
    await deleteImages(removedImageKeys);
    return toJobSummary(job);
  },

  /** The poster cancels an assigned job; the admin any open or assigned job, with a reason. */
  'POST /jobs/{id}/cancel': async (request) => {
    return toJobSummary(await cancelJob(request.params.id ?? '', jobActor(request, MSG.admin.cancelReasonRequired)));
  },

  'POST /jobs/{id}/unassign': async ({ params, caller }) => {
    const { job } = await unassignJob(params.id ?? '', caller.userId);
    return toJobSummary(job);
  },

  /** The poster deletes their job; the admin any job, with a reason (in the body). */
  'DELETE /jobs/{id}': async (request) => {
    const job = await deleteJob(request.params.id ?? '', jobActor(request, MSG.admin.deleteReasonRequired));
    await deleteImages(job.imageKeys);
    return { status: 204 };
  },

  /**
   * The caller's jobs, newest first: those a poster posted (poster dashboard, profile 'Posted
   * Jobs'), or those a worker was assigned (profile 'Job History').
   */
  'GET /me/jobs': async ({ caller }): Promise<{ items: JobSummary[] }> => {
    const profile = await getProfile(caller.userId);
    const jobs = await listOwnJobs({ id: caller.userId, role: profile?.role ?? 'poster' });
    return { items: jobs.map(toJobSummary) };
  },
});
