import { MSG } from '../../../../../shared/messages';
import { MONEY_SERIES_LENGTH, formatCents, type MoneyOverview, type MoneyPeriodKind } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { ChartFigure } from '../../../lib/components/ChartFigure';
import { LoadingState } from '../../../lib/components/LoadingState';
import { formatCalendarDay, formatCentsCompact, formatMonth, formatShortDay, formatShortMonth } from '../../../lib/format';
import { useMoneySeries } from '../api/fetch-money-series';
import { LoadFailed } from './TableStates';

/** What the chart draws of each period (issue 48): the money taken, the platform's fees, what was refunded and what the workers get. */
const SERIES = [
  { label: 'Gross', value: (period: MoneyOverview) => period.gross },
  { label: 'Platform fees', value: (period: MoneyOverview) => period.platformFees },
  { label: 'Refunds', value: (period: MoneyOverview) => period.refundedAmount },
  { label: 'Worker payouts', value: (period: MoneyOverview) => period.workerPayouts },
];

const PERIODS = {
  day: { heading: 'Day', label: (period: MoneyOverview) => formatCalendarDay(period.period), tick: (period: MoneyOverview) => formatShortDay(period.period) },
  month: { heading: 'Month', label: (period: MoneyOverview) => formatMonth(period.period), tick: (period: MoneyOverview) => formatShortMonth(period.period) },
} as const;

/** The money overview over time: each of the last 30 days, or of the last 12 months (UTC, as the counters are kept). */
export function MoneyChart({ kind }: { kind: MoneyPeriodKind }) {
  const series = useMoneySeries(kind);
  if (series.isPending) return <LoadingState label="Loading the money chart..." />;
  if (series.error) return <LoadFailed text={MSG.admin.loadFailed('financial data', apiErrorText(series.error, 'the server did not answer'))} onRetry={() => void series.refetch()} />;
  // The caption follows the data shown: while another window loads, the last one stays on screen.
  const shown = series.data.kind;
  return (
    <ChartFigure
      caption={`Gross, platform fees, refunds and worker payouts over the last ${MONEY_SERIES_LENGTH[shown]} ${shown === 'day' ? 'days' : 'months'} (UTC)`}
      kind="line"
      rows={series.data.periods}
      period={PERIODS[shown]}
      series={SERIES}
      format={formatCents}
      formatTick={formatCentsCompact}
    />
  );
}
