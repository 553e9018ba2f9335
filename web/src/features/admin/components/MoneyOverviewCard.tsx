import { SelectField, TextField } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { MONEY_PERIOD_KINDS, MONEY_PERIOD_PATTERN, formatCents, moneyPeriodOf, type MoneyOverview, type MoneyPeriodKind } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { LoadingState } from '../../../lib/components/LoadingState';
import { useMoneyOverview } from '../api/fetch-money-overview';
import { MoneyChart } from './MoneyChart';
import { LoadFailed } from './TableStates';

const FIGURES: ReadonlyArray<{ label: string; value: (overview: MoneyOverview) => string }> = [
  { label: 'Gross', value: (overview) => formatCents(overview.gross) },
  { label: 'Platform fees', value: (overview) => formatCents(overview.platformFees) },
  { label: 'Card fees', value: (overview) => formatCents(overview.cardFees) },
  { label: 'Worker payouts', value: (overview) => formatCents(overview.workerPayouts) },
  { label: 'Refunds', value: (overview) => `${formatCents(overview.refundedAmount)} (${overview.refunds})` },
  { label: 'Tips', value: (overview) => formatCents(overview.tips) },
  { label: 'Chargebacks', value: (overview) => `${formatCents(overview.chargebackAmount)} (${overview.chargebacks})` },
  { label: 'Dispute fees', value: (overview) => formatCents(overview.disputeFees) },
  { label: 'Losses', value: (overview) => formatCents(overview.losses) },
  { label: 'Site profit', value: (overview) => formatCents(overview.siteProfit) },
  { label: 'Margin', value: (overview) => (overview.profitMarginPercent === null ? '—' : `${overview.profitMarginPercent}%`) },
];

const currentPeriod = (kind: MoneyPeriodKind) => moneyPeriodOf(kind, new Date().toISOString());

/** Totals for one UTC day or month, from the counters the payment transactions keep, and the last 30 days or 12 months charted. */
export function MoneyOverviewCard() {
  const [kind, setKind] = useState<MoneyPeriodKind>('month');
  const [period, setPeriod] = useState(() => currentPeriod('month'));
  // A half-typed date is not asked for: the last whole one stays on screen.
  const [asked, setAsked] = useState({ kind, period });
  const overview = useMoneyOverview(asked.kind, asked.period);

  function choose(nextKind: MoneyPeriodKind, nextPeriod: string) {
    setKind(nextKind);
    setPeriod(nextPeriod);
    if (MONEY_PERIOD_PATTERN[nextKind].test(nextPeriod)) setAsked({ kind: nextKind, period: nextPeriod });
  }

  return (
    <section className="card money-overview" aria-labelledby="money-overview-heading">
      <h2 id="money-overview-heading">Money overview</h2>
      <div className="money-overview__period">
        <SelectField label="Period" size="small" value={kind} onChange={(event) => choose(event.target.value as MoneyPeriodKind, currentPeriod(event.target.value as MoneyPeriodKind))}>
          {MONEY_PERIOD_KINDS.map((option) => (
            <option key={option} value={option}>
              {option === 'day' ? 'Day' : 'Month'}
            </option>
          ))}
        </SelectField>
        <TextField
          label={kind === 'day' ? 'Day (UTC)' : 'Month (UTC)'}
          size="small"
          type={kind === 'day' ? 'date' : 'month'}
          value={period}
          onChange={(event) => choose(kind, event.target.value)}
        />
      </div>
      {overview.isPending ? (
        <LoadingState label="Loading financial data..." />
      ) : overview.error ? (
        <LoadFailed text={MSG.admin.loadFailed('financial data', apiErrorText(overview.error, 'the server did not answer'))} onRetry={() => void overview.refetch()} />
      ) : (
        <dl className="money-overview__figures" aria-live="polite" aria-busy={overview.isFetching}>
          {FIGURES.map((figure) => (
            <div key={figure.label} className="stat-card">
              <dt>{figure.label}</dt>
              <dd>{figure.value(overview.data)}</dd>
            </div>
          ))}
        </dl>
      )}
      {overview.data && overview.data.payments === 0 && !overview.error ? <p className="muted">No payments in this period.</p> : null}
      <MoneyChart kind={asked.kind} />
    </section>
  );
}
