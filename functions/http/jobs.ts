import { MSG } from '../../shared/messages.js';
import { browseJobsQuerySchema, createJobSchema } from '../../shared/schemas/job.js';
import { EVENT_SOURCE, JOB_EVENT } from '../routes.js';
import { browseOpenJobs } from '../domain/job-search.js';
import { getJob, newJob, putNewJob, toJobDetail, toJobSummary } from '../domain/jobs.js';
import { getProfile, toPublicProfile } from '../domain/profiles.js';
import { forbidden, notFound } from '../lib/errors.js';
import { publishEvent } from '../lib/events.js';
import { parseWith, routeGroup } from '../lib/http.js';

function browse(query: Record<string, string>, excludePosterId?: string) {
  const { q, category, limit, cursor } = parseWith(browseJobsQuerySchema, query);
  return browseOpenJobs({ text: q, category, limit, cursor, excludePosterId });
}

export const handler = routeGroup('jobs', {
  /** The public landing grid: open jobs, newest first, optionally searched and filtered. */
  'GET /jobs': async ({ query }) => browse(query),

  /** The signed-in grid: the same, without the caller's own jobs. */
  'GET /feed/jobs': async ({ query, caller }) => browse(query, caller.userId),

  'GET /jobs/{id}': async ({ params, caller }) => {
    const job = await getJob(params.id ?? '');
    if (!job) throw notFound(MSG.jobs.notFound);
    const poster = await getProfile(job.posterId);
    return toJobDetail(job, caller.userId, poster ? toPublicProfile(poster) : null);
  },

  'POST /jobs': async (request) => {
    const { caller } = request;
    const profile = await getProfile(caller.userId);
    if (!profile) throw forbidden(MSG.auth.accountProfileNotFound);
    if (profile.role !== 'poster') throw forbidden(MSG.jobs.onlyPostersCanCreate);
    const job = newJob(request.body(createJobSchema), caller.userId, new Date().toISOString());
    await putNewJob(job);
    const summary = toJobSummary(job);
    await publishEvent(EVENT_SOURCE.jobs, JOB_EVENT.posted, { job: summary });
    return { status: 201, body: summary };
  },
});
