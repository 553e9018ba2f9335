import { MSG } from '../../../shared/messages.js';
import { getJob } from '../jobs.js';
import { getProfile } from '../../people/profiles.js';
import { listSavedJobs, saveJob, unsaveJob } from '../saved-jobs.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('savedJobs', {
  'GET /me/saved-jobs': async ({ caller }) => ({ items: await listSavedJobs(caller.userId) }),

  'PUT /me/saved-jobs/{jobId}': async ({ caller, params }) => {
    const [profile, job] = await Promise.all([getProfile(caller.userId), getJob(params.jobId ?? '')]);
    if (profile?.role !== 'worker') throw forbidden(MSG.savedJobs.onlyWorkers);
    if (!job || job.status === 'awaiting_payment') throw notFound(MSG.jobs.notFound);
    await saveJob(caller.userId, job.id);
    return { status: 204 };
  },

  'DELETE /me/saved-jobs/{jobId}': async ({ caller, params }) => {
    await unsaveJob(caller.userId, params.jobId ?? '');
    return { status: 204 };
  },
});
