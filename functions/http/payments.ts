import type { Earnings } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { confirmPaymentSchema, refundSchema } from '../../shared/schemas/payment.js';
import { recordAdminAction } from '../domain/admin-actions.js';
import { listPayments, openPaidJob, refundPayment, releasePayment } from '../domain/job-payments.js';
import { listWorkerJobs, toJobSummary } from '../domain/jobs.js';
import { appOrigin, refreshOwnPaymentAccount, startOnboarding } from '../domain/payment-accounts.js';
import { getProfile } from '../domain/profiles.js';
import { forbidden, notFound } from '../lib/errors.js';
import { routeGroup } from '../lib/http.js';

export const handler = routeGroup('payments', {
  /** Creates the caller's Express account if needed, and an onboarding link back to the app. */
  'POST /payments/account': async ({ caller, event }) => startOnboarding(caller.userId, appOrigin(event.headers.origin)),

  /** Re-reads the account's state from Stripe and saves it (spec: get-stripe-account-status). */
  'POST /payments/account/status': async ({ caller }) => refreshOwnPaymentAccount(caller.userId),

  /** The client's confirmation after the card step: opens the paid job (once, with the webhook). */
  'POST /payments/confirm': async (request) => {
    const { paymentIntentId } = request.body(confirmPaymentSchema);
    const { job } = await openPaidJob(paymentIntentId);
    if (job.posterId !== request.caller.userId) throw notFound(MSG.jobs.notFound);
    return toJobSummary(job);
  },

  /** The poster (or the admin) releases a completed job's payment to the worker. */
  'POST /jobs/{id}/release-payment': async ({ caller, params }) => {
    const { job } = await releasePayment(params.id ?? '', caller.userId, caller.isAdmin);
    return toJobSummary(job);
  },

  /** 'My Earnings': the worker's paid jobs and their total. */
  'GET /me/earnings': async ({ caller }): Promise<Earnings> => {
    const profile = await getProfile(caller.userId);
    if (profile?.role !== 'worker') throw forbidden(MSG.auth.insufficientPermissions);
    const paidJobs = (await listWorkerJobs(caller.userId, 'paid')).map(toJobSummary);
    return { paidJobs, totalEarned: paidJobs.reduce((sum, job) => sum + job.payment, 0), paymentAccount: profile.paymentAccount };
  },

  'GET /admin/payments': async () => ({ items: await listPayments() }),

  /** An admin refund: through Stripe, the row to refunded, and the action logged. */
  'POST /admin/payments/{id}/refund': async (request) => {
    const { reason } = request.body(refundSchema);
    const paymentIntentId = request.params.id ?? '';
    const refunded = await refundPayment(paymentIntentId, reason, `admin-refund-${paymentIntentId}`);
    await recordAdminAction({
      adminId: request.caller.userId,
      actionType: 'issue_refund',
      targetType: 'payment',
      targetId: paymentIntentId,
      details: { refunded },
      reason,
    });
    return { refunded };
  },
});
