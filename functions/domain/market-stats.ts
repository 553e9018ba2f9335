import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { completionRate, marketOf, type MarketStats } from '../../shared/admin.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getJob, type JobItem } from './jobs.js';

/**
 * Market analytics as running aggregates (DECISIONS.md "Markets"): per market (city, state)
 * a totals item and one item per day with the jobs posted that day, kept by a rule on every
 * job event. The rule does not add what an event says: it reads the job as it is now, works
 * out what the job should contribute, and applies the difference from what was counted for
 * it before (kept per job), all in one transaction. So a redelivered, late or reordered
 * event changes nothing twice, and the figures always equal a recomputation from the jobs.
 */

/** What one job adds to its market's figures. */
interface Contribution {
  market: string;
  day: string;
  openJobs: number;
  paidJobs: number;
  cancelledJobs: number;
  revenue: number;
  profit: number;
}

const FIGURES = ['openJobs', 'paidJobs', 'cancelledJobs', 'revenue', 'profit'] as const;

/** A job's contribution; none for a draft or a job that is gone. */
export function contributionOf(job: JobItem | undefined): Contribution | null {
  if (!job || job.status === 'awaiting_payment' || job.deletingAt) return null;
  const paid = job.status === 'paid';
  return {
    market: marketOf(job.location),
    day: job.createdAt.slice(0, 10),
    openJobs: job.status === 'open' ? 1 : 0,
    paidJobs: paid ? 1 : 0,
    cancelledJobs: job.status === 'cancelled' ? 1 : 0,
    revenue: paid ? job.payment : 0,
    profit: paid ? job.platformFee : 0,
  };
}

type Deltas = Map<string, { key: { pk: string; sk: string }; kind: 'totals' | 'day'; market: string; day?: string; add: Record<string, number> }>;

function addTo(deltas: Deltas, contribution: Contribution, sign: 1 | -1): void {
  const totalsKey = keys.marketTotals(contribution.market);
  const totals = deltas.get(totalsKey.pk + totalsKey.sk) ?? { key: totalsKey, kind: 'totals' as const, market: contribution.market, add: {} };
  for (const figure of FIGURES) totals.add[figure] = (totals.add[figure] ?? 0) + sign * contribution[figure];
  deltas.set(totalsKey.pk + totalsKey.sk, totals);
  const dayKey = keys.marketDay(contribution.market, contribution.day);
  const day = deltas.get(dayKey.pk + dayKey.sk) ?? { key: dayKey, kind: 'day' as const, market: contribution.market, day: contribution.day, add: {} };
  day.add.jobs = (day.add.jobs ?? 0) + sign;
  deltas.set(dayKey.pk + dayKey.sk, day);
}

function deltaUpdate(delta: Deltas extends Map<string, infer V> ? V : never): TransactItem {
  const figures = Object.entries(delta.add);
  const values: Record<string, unknown> = { ':market': delta.market };
  const names: Record<string, string> = {};
  figures.forEach(([figure, amount], i) => {
    names[`#f${i}`] = figure;
    values[`:f${i}`] = amount;
  });
  const index =
    delta.kind === 'totals'
      ? { ':gpk': keys.allMarkets(), ':gsk': delta.market.toLowerCase() }
      : { ':gpk': keys.marketDays(), ':gsk': `${delta.day}#${delta.market.toLowerCase()}`, ':day': delta.day };
  Object.assign(values, index);
  return {
    Update: {
      TableName: tableName(),
      Key: delta.key,
      UpdateExpression: `SET market = :market, gsi1pk = :gpk, gsi1sk = :gsk${delta.kind === 'day' ? ', #day = :day' : ''} ADD ${figures
        .map((_, i) => `#f${i} :f${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: { ...names, ...(delta.kind === 'day' ? { '#day': 'day' } : {}) },
      ExpressionAttributeValues: values,
    },
  };
}

/** Adds to one market's totals (creating the item and listing it under MARKETS when new). */
export function marketTotalsUpdate(market: string, add: Readonly<Record<string, number>>): TransactItem {
  return deltaUpdate({ key: keys.marketTotals(market), kind: 'totals', market, add: { ...add } });
}

const same = (a: Contribution | null, b: Contribution | null) => JSON.stringify(a) === JSON.stringify(b);

/** Brings one job's share of the market figures up to date; true when something changed. */
export async function countJobInMarkets(jobId: string): Promise<boolean> {
  // Every job of a market writes its totals item, so deliveries of busy markets race often.
  return retryWhileStale(async () => {
    const [job, { Item: state }] = await Promise.all([
      getJob(jobId, { includeDeleting: true, consistentRead: true }),
      db.send(new GetCommand({ TableName: tableName(), Key: keys.marketJobState(jobId), ConsistentRead: true })),
    ]);
    const counted = (state?.counted as Contribution | null | undefined) ?? null;
    const now = contributionOf(job);
    if (same(counted, now)) return false;
    const deltas: Deltas = new Map();
    if (counted) addTo(deltas, counted, -1);
    if (now) addTo(deltas, now, 1);
    const version = Number(state?.version ?? 0);
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.marketJobState(jobId), type: 'marketJobState', jobId, counted: now, version: version + 1 },
          ConditionExpression: state ? 'version = :version' : 'attribute_not_exists(pk)',
          ...(state ? { ExpressionAttributeValues: { ':version': version } } : {}),
        },
      },
      ...[...deltas.values()].filter((delta) => Object.values(delta.add).some((amount) => amount !== 0)).map(deltaUpdate),
    ]);
    return true;
  }, { attempts: 12, baseDelayMs: 10 });
}

/** Every market's figures with its jobs of the last 30 days: two indexed queries, whatever the number of jobs. */
export async function listMarketStats(now = new Date()): Promise<MarketStats[]> {
  const since = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  const [totals, days] = await Promise.all([
    queryAll<Record<string, unknown>>({
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.allMarkets() },
    }),
    queryAll<{ market: string; jobs: number }>({
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
      ExpressionAttributeValues: { ':pk': keys.marketDays(), ':since': since },
      ProjectionExpression: 'market, jobs',
    }),
  ]);
  const recent = new Map<string, number>();
  for (const day of days) recent.set(day.market.toLowerCase(), (recent.get(day.market.toLowerCase()) ?? 0) + Number(day.jobs));
  return totals
    .map((item): MarketStats => {
      const figure = (name: string) => Number(item[name] ?? 0);
      const market = String(item.market);
      return {
        market,
        openJobs: figure('openJobs'),
        jobsLast30Days: recent.get(market.toLowerCase()) ?? 0,
        paidJobs: figure('paidJobs'),
        cancelledJobs: figure('cancelledJobs'),
        revenue: figure('revenue'),
        profit: figure('profit'),
        completionRate: completionRate(figure('paidJobs'), figure('cancelledJobs')),
        workersWithLocation: figure('workersWithLocation'),
        workersWithAlerts: figure('workersWithAlerts'),
      };
    })
    .filter((market) => market.openJobs + market.jobsLast30Days + market.paidJobs + market.cancelledJobs + market.workersWithLocation > 0)
    .sort((a, b) => b.openJobs - a.openJobs || a.market.localeCompare(b.market));
}
