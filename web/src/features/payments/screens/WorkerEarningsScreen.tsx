import type { Earnings } from '../../../../../shared/api';
import { EARNINGS_WEEKS, formatCents, type EarningsWeek } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useEarnings } from '../api/fetch-earnings';
import { ChartFigure } from '../../../lib/components/ChartFigure';
import { EmptyState } from '../../../lib/components/EmptyState';
import { formatCalendarDay, formatCentsCompact, formatShortDay } from '../../../lib/format';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { PaidJobList, ReversedJobList } from '../components/PaidJobList';
import { PaymentAccountNeeded } from '../components/PaymentAccountNeeded';
import { InstantCashOut } from '../components/InstantCashOut';
import { PayoutOptions } from '../components/PayoutOptions';
import { isPaymentSetupComplete } from '../payment-account';
import { MSG } from '../../../../../shared/messages';

const WEEKS = { heading: 'Week of', label: (week: EarningsWeek) => formatCalendarDay(week.week), tick: (week: EarningsWeek) => formatShortDay(week.week) };
const EARNED = [
  { label: 'Payments', value: (week: EarningsWeek) => week.payments },
  { label: 'Tips', value: (week: EarningsWeek) => week.tips },
];

/** 'My Earnings' (spec 2 §2): the worker's paid jobs and totals, and fast payouts once the account is fully set up. */
export default function WorkerEarningsScreen() {
  const earnings = useEarnings();
  return (
    <div className="page">
      <PageHeading>My Earnings</PageHeading>
      {earnings.isPending ? <LoadingState label="Loading your earnings..." /> : null}
      {earnings.isError ? (
        <EmptyState title={apiErrorText(earnings.error, MSG.payments.earningsLoadFailed)}>
          <button type="button" className="button button--secondary" onClick={() => void earnings.refetch()}>
            Try again
          </button>
        </EmptyState>
      ) : null}
      {earnings.isSuccess ? <EarningsOverview earnings={earnings.data} onAccountChecked={() => void earnings.refetch()} /> : null}
    </div>
  );
}

function EarningsOverview({ earnings, onAccountChecked }: { earnings: Earnings; onAccountChecked(): void }) {
  return (
    <>
      <dl className="stat-grid" aria-label="Your earnings at a glance">
        <div className="stat-card">
          <dt>Total Earned</dt>
          <dd>{formatCents(earnings.totalEarned)}</dd>
        </div>
        <div className="stat-card">
          <dt>Tips</dt>
          <dd>{formatCents(earnings.totalTips)}</dd>
        </div>
        <div className="stat-card">
          <dt>Jobs Paid</dt>
          <dd>{earnings.paidJobs.length}</dd>
        </div>
        {earnings.owed > 0 ? (
          <div className="stat-card stat-card--warning">
            <dt>Owed to the platform</dt>
            <dd>{formatCents(earnings.owed)}</dd>
          </div>
        ) : null}
      </dl>
      <section className="section-block" aria-labelledby="earnings-by-week-heading">
        <h2 id="earnings-by-week-heading">Earnings by week</h2>
        <ChartFigure
          caption={`What you earned each week over the last ${EARNINGS_WEEKS} weeks (weeks start on Monday)`}
          kind="stacked-bar"
          rows={earnings.weeks}
          period={WEEKS}
          series={EARNED}
          format={formatCents}
          formatTick={formatCentsCompact}
        />
      </section>
      <section className="section-block" aria-labelledby="paid-jobs-heading">
        <h2 id="paid-jobs-heading">Paid Jobs</h2>
        <PaidJobList jobs={earnings.paidJobs} />
      </section>
      {earnings.reversedJobs.length > 0 ? (
        <section className="section-block" aria-labelledby="reversed-jobs-heading">
          <h2 id="reversed-jobs-heading">Payments taken back</h2>
          <ReversedJobList jobs={earnings.reversedJobs} />
        </section>
      ) : null}
      {isPaymentSetupComplete(earnings.paymentAccount) ? (
        <>
          <InstantCashOut />
          <PayoutOptions account={earnings.paymentAccount} onChecked={onAccountChecked} />
        </>
      ) : (
        <PaymentAccountNeeded message={MSG.payments.finishSetupForPayouts} />
      )}
    </>
  );
}
