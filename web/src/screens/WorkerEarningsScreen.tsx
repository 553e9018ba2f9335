import type { Earnings } from '../../../shared/api';
import { formatCents } from '../../../shared/money';
import { apiErrorText } from '../api/client';
import { fetchEarnings } from '../api/endpoints';
import { EmptyState } from '../components/EmptyState';
import { LoadingState } from '../components/LoadingState';
import { PageHeading } from '../components/PageHeading';
import { PaidJobList } from '../components/payments/PaidJobList';
import { PaymentAccountNeeded } from '../components/payments/PaymentAccountNeeded';
import { PayoutOptions } from '../components/payments/PayoutOptions';
import { useApiQuery } from '../hooks/useApiQuery';
import { isPaymentSetupComplete } from '../lib/payment-account';
import { MSG } from '../../../shared/messages';

/** 'My Earnings' (spec 2 §2): the worker's paid jobs and totals, and fast payouts once the account is fully set up. */
export default function WorkerEarningsScreen() {
  const earnings = useApiQuery('earnings', fetchEarnings);
  return (
    <div className="page">
      <PageHeading>My Earnings</PageHeading>
      {earnings.status === 'loading' ? <LoadingState label="Loading your earnings..." /> : null}
      {earnings.status === 'failed' ? (
        <EmptyState title={apiErrorText(earnings.error, MSG.payments.earningsLoadFailed)}>
          <button type="button" className="button button--secondary" onClick={earnings.reload}>
            Try again
          </button>
        </EmptyState>
      ) : null}
      {earnings.status === 'ready' ? <EarningsOverview earnings={earnings.data} /> : null}
    </div>
  );
}

function EarningsOverview({ earnings }: { earnings: Earnings }) {
  return (
    <>
      <dl className="stat-grid" aria-label="Your earnings at a glance">
        <div className="stat-card">
          <dt>Total Earned</dt>
          <dd>{formatCents(earnings.totalEarned)}</dd>
        </div>
        <div className="stat-card">
          <dt>Jobs Paid</dt>
          <dd>{earnings.paidJobs.length}</dd>
        </div>
      </dl>
      <section className="section-block" aria-labelledby="paid-jobs-heading">
        <h2 id="paid-jobs-heading">Paid Jobs</h2>
        <PaidJobList jobs={earnings.paidJobs} />
      </section>
      {isPaymentSetupComplete(earnings.paymentAccount) ? <PayoutOptions /> : <PaymentAccountNeeded message={MSG.payments.finishSetupForPayouts} />}
    </>
  );
}
