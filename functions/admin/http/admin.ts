import * as z from '../../../shared/zod.js';
import { ADMIN_ACTION_TYPES, ADMIN_JOB_STATUSES, ADMIN_PAGE_SIZE, type MarketAnalytics } from '../../../shared/admin.js';
import { categoryVisibilitySchema, reportJobSchema, reviewFlagSchema } from '../../../shared/schemas/admin.js';
import { listAdminActions } from '../../lib/admin-actions.js';
import { hiddenCategories, listCategoryEarnings, listCategoryStats, setCategoryHidden } from '../categories.js';
import { listFlags, reportJob, reviewJobFlags } from '../job-flags.js';
import { listJobsByStatus, toPartyJob } from '../../jobs/jobs.js';
import { getMarketAnalytics } from '../market-stats.js';
import { parseWith, routeGroup } from '../../lib/http.js';
import { jobScope, movementsOf } from '../../money/ledger.js';
import { balances, jobMoneyPosition, type JobLedger } from '../../../shared/ledger.js';

const cursor = z.optional(z.string());
const jobsQuerySchema = z.object({ status: z._default(z.enum(ADMIN_JOB_STATUSES), 'open'), cursor });
const flagsQuerySchema = z.object({ status: z._default(z.enum(['pending', 'approved', 'removed']), 'pending'), cursor });
const actionsQuerySchema = z.object({ type: z.optional(z.enum(ADMIN_ACTION_TYPES)), cursor });

export const handler = routeGroup('admin', {
  /** 'Report this job': any signed-in user, once per job (DECISIONS.md "How a job gets flagged"); or one of its public questions. */
  'POST /jobs/{id}/flags': async (request) => {
    const { flagType, reason, questionId } = request.body(reportJobSchema);
    await reportJob(request.params.id ?? '', request.caller.userId, flagType, reason, questionId);
    return { status: 201, body: { reported: true } };
  },

  /** Every job in one status, newest first, 50 per page (docs/data-model.md pattern 11); as its parties see it, so the console shows a paused or blocked auto-release. */
  'GET /admin/jobs': async ({ query }) => {
    const { status, cursor } = parseWith(jobsQuerySchema, query);
    return listJobsByStatus(status, { limit: ADMIN_PAGE_SIZE, cursor }, toPartyJob);
  },

  /**
   * Where every cent of one job is (issue 34): its ledger movements oldest first, each account's
   * balance, and what came in, went out and is still held (one Query of the job's ledger partition).
   */
  'GET /admin/jobs/{id}/ledger': async ({ params }): Promise<JobLedger> => {
    const jobId = params.id ?? '';
    const movements = await movementsOf(jobScope(jobId));
    return { jobId, movements, balances: Object.fromEntries(balances(movements)), position: jobMoneyPosition(jobId, movements) };
  },

  /** Reports in one status (pending by default), newest first. */
  'GET /admin/flags': async ({ query }) => {
    const { status, cursor } = parseWith(flagsQuerySchema, query);
    return listFlags(status, cursor);
  },

  /** Approve (the job stays, its flags are cleared) or remove (the job is cancelled and refunded, the poster told why); a question's reports: keep or remove the question. */
  'POST /admin/flags/{jobId}/review': async (request) => {
    const { decision, notes, questionId } = request.body(reviewFlagSchema);
    await reviewJobFlags(request.params.jobId ?? '', decision, notes, request.caller.userId, questionId);
    return { decision };
  },

  /** The Locations and Market Analytics tabs: every market's running figures, and the jobs of each of the last 30 days. */
  'GET /admin/markets': async (): Promise<MarketAnalytics> => getMarketAnalytics(),

  /** The audit log: admin_actions newest first, optionally of one action type. */
  'GET /admin/actions': async ({ query }) => {
    const { type, cursor } = parseWith(actionsQuerySchema, query);
    return listAdminActions(type, cursor);
  },

  /** Every declared category with its running figures and whether it is hidden from posting. */
  'GET /admin/categories': async () => ({ items: await listCategoryStats() }),

  /** Hide a category from posting (its jobs stay) or show it again, with a reason. */
  'PUT /admin/categories': async (request) => {
    const { category, hidden, reason } = request.body(categoryVisibilitySchema);
    await setCategoryHidden(category, hidden, reason, request.caller.userId);
    return { category, hidden };
  },

  /** The post-job form leaves these out. */
  'GET /categories/hidden': async () => ({ items: await hiddenCategories() }),

  /** The landing page's category cards: what each category's jobs pay (decision 0317). */
  'GET /categories/earnings': async () => ({ items: await listCategoryEarnings() }),
});
