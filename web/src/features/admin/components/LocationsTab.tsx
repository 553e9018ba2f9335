import { Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import type { MarketStats } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { TableStates } from './TableStates';
import { useMarkets } from '../api/fetch-markets';

const ROW_HEIGHT = 28;
const LABEL_WIDTH = 140;
const PLOT_WIDTH = 320;

/** Markets as rows of dots: filled for open jobs, hollow for jobs of the last 30 days (no map tiles: none load offline). */
function MarketDotPlot({ markets }: { markets: MarketStats[] }) {
  const largest = Math.max(1, ...markets.flatMap((market) => [market.openJobs, market.jobsLast30Days]));
  const x = (count: number) => LABEL_WIDTH + (count / largest) * (PLOT_WIDTH - 12) + 6;
  return (
    <figure className="market-plot">
      <svg
        viewBox={`0 0 ${LABEL_WIDTH + PLOT_WIDTH} ${markets.length * ROW_HEIGHT + 8}`}
        role="img"
        aria-label="Open jobs and jobs of the last 30 days per market"
        width="100%"
      >
        {markets.map((market, i) => {
          const y = i * ROW_HEIGHT + ROW_HEIGHT / 2 + 4;
          return (
            <g key={market.market}>
              <text x={0} y={y + 4} fontSize="12">
                {market.market}
              </text>
              <line x1={LABEL_WIDTH} x2={LABEL_WIDTH + PLOT_WIDTH} y1={y} y2={y} stroke="#ddd" />
              <circle cx={x(market.jobsLast30Days)} cy={y} r={6} fill="none" stroke="#2563eb" strokeWidth={2}>
                <title>{`${market.jobsLast30Days} jobs in the last 30 days`}</title>
              </circle>
              <circle cx={x(market.openJobs)} cy={y} r={5} fill="#16a34a">
                <title>{`${market.openJobs} open jobs`}</title>
              </circle>
            </g>
          );
        })}
      </svg>
      <figcaption>Filled: open jobs. Ring: jobs posted in the last 30 days.</figcaption>
    </figure>
  );
}

/** One row per market (city, state), sorted by open jobs (DECISIONS.md "Locations tab"). */
export default function LocationsTab() {
  const markets = useMarkets();
  const rows = markets.data?.items ?? [];
  return (
    <section aria-label="Locations">
      <TableStates
        what="location stats"
        query={markets}
        failedText={(reason) => MSG.admin.loadFailed('location stats', reason)}
        isEmpty={rows.length === 0}
        emptyText="No markets yet: they appear with their first job."
      >
        <MarketDotPlot markets={rows} />
        <Table caption="Markets by open jobs" highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Market</TableCell>
              <TableCell as="th">Open jobs</TableCell>
              <TableCell as="th">Jobs (last 30 days)</TableCell>
              <TableCell as="th">Workers located there</TableCell>
              <TableCell as="th">Workers with alerts on</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((market) => (
              <TableRow key={market.market}>
                <TableCell>{market.market}</TableCell>
                <TableCell>{market.openJobs}</TableCell>
                <TableCell>{market.jobsLast30Days}</TableCell>
                <TableCell>{market.workersWithLocation}</TableCell>
                <TableCell>{market.workersWithAlerts}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
    </section>
  );
}
