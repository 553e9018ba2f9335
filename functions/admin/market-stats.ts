import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MARKET_RECENT_DAYS, completionRate, marketOf, type MarketAnalytics, type MarketStats } from '../../shared/admin.js';
import { payBandAttribute, payBandOf } from '../../shared/earnings-ranges.js';
import { recentPeriods } from '../../shared/series.js';
import { db, tableName } from '../lib/db.js';
import { queryEveryShard } from '../lib/sharded-lists.js';
import { retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys, type ItemKey } from '../table.js';
import { getJob, type JobItem } from '../jobs/jobs.js';

/**
 * Market analytics as running aggregates (DECISIONS.md "Markets"): per market (city, state)
 * a totals item and one item per day with the jobs posted that day, kept by a rule on every
 * job event. The rule does not add what an event says: it reads the job as it is now, works
 * out what the job should contribute, and applies the difference from what was counted for
 * it before (kept per job), all in one transaction. So a redelivered, late or reordered
 * event changes nothing twice, and the figures always equal a recomputation from the jobs.
 */

/** What one job adds to its market's figures and to its category's (issue 27). */
interface Contribution {
  market: string;
  day: string;
  openJobs: number;
  paidJobs: number;
  cancelledJobs: number;
  revenue: number;
  profit: number;
  /** Absent from what was counted before categories were: such a job has not been counted in one. */
  category?: string;
  /** Completed or paid: the work was done. */
  completedJobs?: number;
  /** The worker's payment of every counted job: with the job count, the category's average payment. */
  payment?: number;
  /** The pay band of a job paid for and not refunded by a cancellation: the category's earnings range (shared/earnings-ranges.ts). */
  payBand?: number;
}

const MARKET_FIGURES = ['openJobs', 'paidJobs', 'cancelledJobs', 'revenue', 'profit'] as const;
const CATEGORY_FIGURES = ['openJobs', 'completedJobs', 'payment', 'revenue'] as const;

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
    category: job.category,
    completedJobs: paid || job.status === 'completed' ? 1 : 0,
    payment: job.payment,
    ...(job.status === 'cancelled' ? {} : { payBand: payBandOf(job.payment) }),
  };
}

/** One counter item's change: what it is set to (its name and index keys) and what is added to its figures. */
interface Delta {
  key: ItemKey;
  set: Record<string, string>;
  add: Record<string, number>;
}
type Deltas = Map<string, Delta>;

function deltaOf(deltas: Deltas, key: ItemKey, set: Record<string, string>): Delta {
  const delta = deltas.get(key.pk + key.sk) ?? { key, set, add: {} };
  deltas.set(key.pk + key.sk, delta);
  return delta;
}

const marketTotalsSet = (market: string) => ({ market, gsi1pk: keys.allMarkets().partitionOf(market.toLowerCase()), gsi1sk: market.toLowerCase() });

function addTo(deltas: Deltas, contribution: Contribution, sign: 1 | -1): void {
  const totals = deltaOf(deltas, keys.marketTotals(contribution.market), marketTotalsSet(contribution.market));
  for (const figure of MARKET_FIGURES) totals.add[figure] = (totals.add[figure] ?? 0) + sign * contribution[figure];
  const { market, day: date } = contribution;
  const day = deltaOf(deltas, keys.marketDay(market, date), {
    market,
    day: date,
    gsi1pk: keys.marketDays().partitionOf(market.toLowerCase()),
    gsi1sk: `${date}#${market.toLowerCase()}`,
  });
  day.add.jobs = (day.add.jobs ?? 0) + sign;
  if (contribution.category === undefined) return;
  const category = deltaOf(deltas, keys.categoryTotals(contribution.category), {
    category: contribution.category,
    gsi1pk: keys.allCategories().partitionOf(contribution.category),
    gsi1sk: contribution.category,
  });
  category.add.jobs = (category.add.jobs ?? 0) + sign;
  for (const figure of CATEGORY_FIGURES) category.add[figure] = (category.add[figure] ?? 0) + sign * (contribution[figure] ?? 0);
  if (contribution.payBand === undefined) return;
  const band = payBandAttribute(contribution.payBand);
  category.add[band] = (category.add[band] ?? 0) + sign;
}

function deltaUpdate(delta: Delta): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(delta.set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const adds = Object.entries(delta.add).map(([figure, amount], i) => {
    names[`#f${i}`] = figure;
    values[`:f${i}`] = amount;
    return `#f${i} :f${i}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: delta.key,
      UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Adds to one market's totals (creating the item and listing it under MARKETS when new). */
export function marketTotalsUpdate(market: string, add: Readonly<Record<string, number>>): TransactItem {
  return deltaUpdate({ key: keys.marketTotals(market), set: marketTotalsSet(market), add: { ...add } });
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

/**
 * Every market's figures with its jobs of the last 30 days, and the jobs of each of those days in
 * all markets together (the analytics' chart): two indexed queries per shard, in parallel, whatever
 * the number of jobs.
 */
export async function getMarketAnalytics(now = new Date()): Promise<MarketAnalytics> {
  const recentDays = recentPeriods('day', MARKET_RECENT_DAYS, now);
  const [totals, days] = await Promise.all([
    queryEveryShard<Record<string, unknown>>(keys.allMarkets().partitions, { IndexName: 'GSI1' }),
    // The index sort key is `<day>#<market>`.
    queryEveryShard<{ market: string; gsi1sk: string; jobs: number }>(keys.marketDays().partitions, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1sk >= :since',
      ExpressionAttributeValues: { ':since': recentDays[0] },
      ProjectionExpression: 'market, gsi1sk, jobs',
    }),
  ]);
  const recent = new Map<string, number>();
  const perDay = new Map(recentDays.map((day) => [day, 0]));
  for (const { market, gsi1sk, jobs } of days) {
    recent.set(market.toLowerCase(), (recent.get(market.toLowerCase()) ?? 0) + Number(jobs));
    const day = gsi1sk.slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + Number(jobs));
  }
  const items = totals
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
  return { items, days: recentDays.map((day) => ({ day, jobs: perDay.get(day) ?? 0 })) };
}
