import { Badge, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { MARKET_RECENT_DAYS, completionLevel, marketStatus, type MarketDay, type MarketStats } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { ChartFigure } from '../../../lib/components/ChartFigure';
import { formatCalendarDay, formatShortDay } from '../../../lib/format';
import { TableStates } from './TableStates';
import { useMarkets } from '../api/fetch-markets';

/** The columns the market table sorts by (spec 2 §9). */
const SORTS = {
  revenue: { label: 'Revenue', value: (market: MarketStats) => market.revenue },
  jobs: { label: 'Jobs (30 days)', value: (market: MarketStats) => market.jobsLast30Days },
  profit: { label: 'Profit', value: (market: MarketStats) => market.profit },
  completionRate: { label: 'Completion rate', value: (market: MarketStats) => market.completionRate ?? -1 },
} as const;
type SortKey = keyof typeof SORTS;

const STATUS_VARIATION = { 'High Performing': 'success', Growing: 'info', Developing: 'warning' } as const;
const LEVEL_ICON = { good: '▲', fair: '●', poor: '▼', none: '–' } as const;

const DAYS = { heading: 'Day', label: (day: MarketDay) => formatCalendarDay(day.day), tick: (day: MarketDay) => formatShortDay(day.day) };
const JOBS_POSTED = [{ label: 'Jobs posted', value: (day: MarketDay) => day.jobs }];

/** Jobs posted per day in every market together (the chart), then revenue, profit and completion per market, sortable either way by revenue, jobs, profit or completion rate. */
export default function MarketAnalyticsTab() {
  const markets = useMarkets();
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'revenue', descending: true });
  const rows = [...(markets.data?.items ?? [])].sort((a, b) => {
    const difference = SORTS[sort.key].value(a) - SORTS[sort.key].value(b);
    return sort.descending ? -difference : difference;
  });
  const sortBy = (key: SortKey) => setSort((current) => ({ key, descending: current.key === key ? !current.descending : true }));
  const header = (key: SortKey) => (
    <TableCell as="th" aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="link-button" onClick={() => sortBy(key)}>
        {SORTS[key].label}
        {sort.key === key ? (sort.descending ? ' ↓' : ' ↑') : ''}
      </button>
    </TableCell>
  );

  return (
    <section aria-label="Market Analytics">
      {markets.data ? (
        <ChartFigure
          caption={`Jobs posted per day in all markets over the last ${MARKET_RECENT_DAYS} days (UTC)`}
          kind="bar"
          rows={markets.data.days}
          period={DAYS}
          series={JOBS_POSTED}
          format={String}
          formatTick={String}
        />
      ) : null}
      <TableStates
        what="market analytics"
        query={markets}
        failedText={(reason) => MSG.admin.loadFailed('market analytics', reason)}
        isEmpty={rows.length === 0}
        emptyText="No market figures yet."
      >
        <Table caption="Markets" highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Market</TableCell>
              <TableCell as="th">Status</TableCell>
              {header('revenue')}
              {header('profit')}
              {header('jobs')}
              {header('completionRate')}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((market) => {
              const status = marketStatus(market.revenue);
              const level = completionLevel(market.completionRate);
              return (
                <TableRow key={market.market}>
                  <TableCell>{market.market}</TableCell>
                  <TableCell>
                    <Badge size="small" variation={STATUS_VARIATION[status]}>
                      {status}
                    </Badge>
                  </TableCell>
                  <TableCell>{formatCents(market.revenue)}</TableCell>
                  <TableCell>{formatCents(market.profit)}</TableCell>
                  <TableCell>{market.jobsLast30Days}</TableCell>
                  <TableCell>
                    <span aria-hidden="true" className={`completion completion--${level}`}>
                      {LEVEL_ICON[level]}
                    </span>{' '}
                    {market.completionRate === null ? 'n/a' : `${market.completionRate}%`}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableStates>
    </section>
  );
}
