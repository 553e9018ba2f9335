import type { Earnings, JobPaymentStart } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { confirmPaymentSchema, refundSchema, releasePaymentSchema } from '../../shared/schemas/payment.js';
import { totalEarnings } from '../../shared/money.js';
import { adminRefund, listPayments, openPaidJob, releasePayment, resumeJobPayment } from '../domain/job-payments.js';
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

  /** The card step of the caller's own unpaid draft, with its existing PaymentIntent. */
  'GET /jobs/{id}/payment': async ({ caller, params }): Promise<JobPaymentStart> => resumeJobPayment(params.id ?? '', caller.userId),

  /** The poster (or the admin, with a reason for the audit log) releases a completed job's payment to the worker. */
  'POST /jobs/{id}/release-payment': async (request) => {
    const { caller, params } = request;
    const { reason } = request.body(releasePaymentSchema);
    const { job } = await releasePayment(params.id ?? '', caller.userId, caller.isAdmin ? { reason } : null);
    return toJobSummary(job);
  },

  /** 'My Earnings': the worker's paid jobs and their total. */
  'GET /me/earnings': async ({ caller }): Promise<Earnings> => {
    const profile = await getProfile(caller.userId);
    if (profile?.role !== 'worker') throw forbidden(MSG.auth.insufficientPermissions);
    const paidJobs = (await listWorkerJobs(caller.userId, 'paid')).map(toJobSummary);
    return { paidJobs, totalEarned: totalEarnings(paidJobs), paymentAccount: profile.paymentAccount };
  },

  'GET /admin/payments': async ({ query }) => listPayments(query.cursor),

  /**
   * An admin refund: through Stripe, the row to refunded and the action logged (one
   * transaction), once however often it is clicked; another reason is a 409.
   */
  'POST /admin/payments/{id}/refund': async (request) => {
    const { reason } = request.body(refundSchema);
    const refunded = await adminRefund(request.params.id ?? '', reason, request.caller.userId);
    return { refunded };
  },
});
