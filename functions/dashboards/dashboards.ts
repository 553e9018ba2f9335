import type { Dashboard } from '../../shared/api.js';
import { workerSuccessRate } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { totalEarnings } from '../../shared/money.js';
import { forbidden, notFound } from '../lib/errors.js';
import { listOwnJobs, toPartyJob } from '../jobs/jobs.js';
import { getProfile, toPublicProfile } from '../people/profiles.js';
import { listReviewsAbout } from '../reviews/reviews.js';

/**
 * The caller's dashboard (spec 2 §2 "Worker dashboard", "Poster dashboard") in one answer, from
 * two indexed queries: the caller's jobs (GSI3 `WORKER#` for a worker, GSI2 `POSTER#` for a
 * poster) and the reviews about them (GSI1 `REVIEWS#`), besides GetItem/BatchGetItem for
 * profiles. Sections and counts are cut from the jobs by status; the admin has a console instead.
 */
export async function loadDashboard(userId: string): Promise<Dashboard> {
  const profile = await getProfile(userId);
  if (!profile) throw notFound(MSG.auth.profileNotFound);
  if (profile.role === 'admin') throw forbidden(MSG.backend.accessDenied);
  const [jobs, reviews] = await Promise.all([listOwnJobs(profile), listReviewsAbout(userId)]);
  const partyJobs = jobs.map(toPartyJob);
  const { rating, reviewCount } = toPublicProfile(profile);
  return {
    role: profile.role,
    jobs: partyJobs,
    totalEarnings: profile.role === 'worker' ? totalEarnings(partyJobs) : 0,
    successRate: profile.role === 'worker' ? workerSuccessRate(partyJobs) : null,
    rating,
    reviewCount,
    reviews,
  };
}
