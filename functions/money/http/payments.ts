import type { Earnings, JobPaymentStart, PendingMoneyDecision, ReversalPreview, TipAnswer } from '../../../shared/api.js';
import * as z from '../../../shared/zod.js';
import { MSG } from '../../../shared/messages.js';
import { UUID } from '../../../shared/chat.js';
import { confirmPaymentSchema, instantPayoutSchema, refundSchema, releasePaymentSchema, tipSchema } from '../../../shared/schemas/payment.js';
import type { InstantPayout, InstantPayoutAvailability } from '../../../shared/payouts.js';
import { EARNINGS_WEEKS, MONEY_PERIOD_KINDS, MONEY_PERIOD_PATTERN, earningsByWeek, moneyPeriodOf, totalEarnings, type MoneySeries } from '../../../shared/money.js';
import { recentWeeks } from '../../../shared/series.js';
import { jobOfPayment, listPayments, openPaidJob, paymentsOfJob, resumeJobPayment } from '../job-payments.js';
import { adminRefundJob, releasePayment, reversalPreview, reverseRelease } from '../job-money.js';
import { MoneyRefused, carryOut, listPendingDecisions, toPendingDecision } from '../executor.js';
import { getDecision } from '../decision.js';
import { releaseBlockedWhenReady } from '../auto-release.js';
import { listWorkerJobs, toJobSummary, toPartyJob } from '../../jobs/jobs.js';
import { addTip } from '../tips.js';
import { getInstantPayoutAvailability, requestInstantPayout } from '../instant-payouts.js';
import { appOrigin, refreshOwnPaymentAccount, startOnboarding } from '../payment-accounts.js';
import { getMoneyOverview, getMoneySeries } from '../money-totals.js';
import { getProfile } from '../../people/profiles.js';
import { localClock } from '../../notifications/local-clock.js';
import { recordRoleRefusal } from '../../lib/admin-actions.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { parseWith, routeGroup } from '../../lib/http.js';

const paymentsQuerySchema = z.object({ job: z.optional(z.string().check(z.regex(UUID, MSG.jobs.notFound))), cursor: z.optional(z.string()) });

/** The overview's period: a UTC day (YYYY-MM-DD) or month (YYYY-MM) matching its kind; by default the current month. */
const overviewQuerySchema = z
  .object({
    kind: z._default(z.enum(MONEY_PERIOD_KINDS, MSG.admin.invalidMoneyPeriod), 'month'),
    period: z.optional(z.string(MSG.admin.invalidMoneyPeriod)),
  })
  .check(z.refine((query) => query.period === undefined || MONEY_PERIOD_PATTERN[query.kind].test(query.period), MSG.admin.invalidMoneyPeriod));

/** The chart's window: the last 30 days or, by default, the last 12 months. */
const seriesQuerySchema = z.object({ kind: z._default(z.enum(MONEY_PERIOD_KINDS, MSG.admin.invalidMoneyPeriod), 'month') });

export const handler = routeGroup('payments', {
  /** Creates the caller's Express account if needed, and an onboarding link back to the app. */
  'POST /payments/account': async ({ caller, event }) => startOnboarding(caller.userId, appOrigin(event.headers.origin)),

  /** Re-reads the account's state from Stripe and saves it (spec: get-stripe-account-status). */
  'POST /payments/account/status': async ({ caller }) => {
    const account = await refreshOwnPaymentAccount(caller.userId);
    await releaseBlockedWhenReady(caller.userId, account);
    return account;
  },

  /** The client's confirmation after the card step: opens the paid job (once, with the webhook). */
  'POST /payments/confirm': async (request) => {
    const { paymentIntentId } = request.body(confirmPaymentSchema);
    const { job } = await openPaidJob(paymentIntentId);
    if (job.posterId !== request.caller.userId) throw notFound(MSG.jobs.notFound);
    return toJobSummary(job);
  },

  /** The card step of the caller's own unpaid draft, with its existing PaymentIntent. */
  'GET /jobs/{id}/payment': async ({ caller, params }): Promise<JobPaymentStart> => resumeJobPayment(params.id ?? '', caller.userId),

  /** The poster (or the admin, with a reason for the audit log) releases a completed job's payment to the worker. */
  'POST /jobs/{id}/release-payment': async (request) => {
    const { caller, params } = request;
    const { reason } = request.body(releasePaymentSchema);
    const { job } = await releasePayment(params.id ?? '', caller.userId, caller.isAdmin ? { admin: { reason } } : {});
    return toJobSummary(job);
  },

  /** The poster tips the worker of their paid job (functions/money/tips.ts): paid, or the card step to confirm it on. */
  'POST /jobs/{id}/tip': async (request): Promise<TipAnswer> => {
    const { amount } = request.body(tipSchema);
    return addTip(request.params.id ?? '', request.caller.userId, amount);
  },

  /** 'My Earnings': the worker's paid jobs with their tips, and the total of both. */
  'GET /me/earnings': async ({ caller }): Promise<Earnings> => {
    const profile = await getProfile(caller.userId);
    if (profile?.role !== 'worker') {
      await recordRoleRefusal(caller.userId, 'GET /me/earnings');
      throw forbidden(MSG.auth.insufficientPermissions);
    }
    const [paid, cancelled] = await Promise.all([listWorkerJobs(caller.userId, 'paid'), listWorkerJobs(caller.userId, 'cancelled')]);
    const paidJobs = paid.map(toPartyJob);
    const reversedJobs = cancelled.filter((job) => job.reversal).map(toPartyJob);
    const totalTips = paidJobs.reduce((sum, job) => sum + (job.tip ?? 0), 0);
    const owed = reversedJobs.reduce((sum, job) => sum + (job.reversal?.unrecovered ?? 0), 0);
    // The worker's weeks, on their own calendar: the zone their browser saved, else UTC.
    const now = new Date();
    const weeks = earningsByWeek(paidJobs, recentWeeks(EARNINGS_WEEKS, localClock(now, profile.timeZone).day), (at) => localClock(new Date(at), profile.timeZone).day);
    return { paidJobs, totalEarned: totalEarnings(paidJobs), totalTips, reversedJobs, owed, paymentAccount: profile.paymentAccount, weeks };
  },

  /** Whether the worker can cash out instantly now, what, and their past cash-outs (functions/money/instant-payouts.ts). */
  'GET /me/payouts/instant': async ({ caller }): Promise<InstantPayoutAvailability> => getInstantPayoutAvailability(caller.userId),

  /** 'Cash out now': an Instant Payout of the worker's balance to their debit card, once per request key. */
  'POST /me/payouts/instant': async (request): Promise<InstantPayout> => {
    const { amount, idempotencyKey } = request.body(instantPayoutSchema);
    return requestInstantPayout(request.caller.userId, amount, idempotencyKey);
  },

  /** Every payment, newest first; or `?job=<id>`: that job's payment alone (the Jobs tab's link to it). */
  'GET /admin/payments': async ({ query }) => {
    const { job, cursor } = parseWith(paymentsQuerySchema, query);
    return job ? paymentsOfJob(job) : listPayments(cursor);
  },

  /** The money overview of one day or month: one counter item read (functions/money/money-totals.ts). */
  'GET /admin/payments/overview': async ({ query }) => {
    const { kind, period } = parseWith(overviewQuerySchema, query);
    return getMoneyOverview(kind, period ?? moneyPeriodOf(kind, new Date().toISOString()));
  },

  /** The money chart: the overview of each of the last 30 days (`kind=day`) or 12 months (`kind=month`), one Query (functions/money/money-totals.ts). */
  'GET /admin/payments/overview/series': async ({ query }): Promise<MoneySeries> => getMoneySeries(parseWith(seriesQuerySchema, query).kind),

  /** What a refund after release would take back from the worker's balance, for the admin to confirm (Wave 5). */
  'GET /admin/payments/{id}/reversal': async ({ params }): Promise<ReversalPreview> => reversalPreview(await jobOfPayment(params.id ?? '')),

  /**
   * An admin refund (functions/money/job-money.ts): held money refunded and the job cancelled;
   * money already released only with the reversal the admin confirmed. Once however often it is
   * clicked; a payment refunded already is a 409.
   */
  'POST /admin/payments/{id}/refund': async (request) => {
    const { reason, reverse } = request.body(refundSchema);
    const job = await jobOfPayment(request.params.id ?? '');
    if (reverse) {
      await reverseRelease(job, reason, reverse, request.caller.userId);
      return { refunded: true };
    }
    // `refunded`: whether this click decided the refund (racing clicks finish it, and say they did not).
    const { decidedHere } = await adminRefundJob(job, reason, request.caller.userId);
    return { refunded: decidedHere };
  },

  /** The money decisions still waiting for Stripe, oldest first (functions/money/executor.ts). */
  'GET /admin/money/decisions': async (): Promise<{ items: PendingMoneyDecision[] }> => ({ items: await listPendingDecisions() }),

  /**
   * The admin's retry of a pending decision: carried out now, as the schedule would. Answers the
   * decision as it ended; one that Stripe still does not take stays pending with Stripe's error.
   */
  'POST /admin/money/decisions/{id}/retry': async ({ params }): Promise<PendingMoneyDecision & { status: string }> => {
    const decisionId = params.id ?? '';
    try {
      const settled = await carryOut(decisionId);
      return { ...toPendingDecision(settled), status: settled.status };
    } catch (error) {
      if (error instanceof MoneyRefused) return { ...toPendingDecision(error.decision), status: 'rolledBack' };
      const pending = await getDecision(decisionId);
      if (!pending) throw error;
      return { ...toPendingDecision(pending), status: pending.status };
    }
  },
});
