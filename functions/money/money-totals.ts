import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerMovement } from '../../shared/ledger.js';
import {
  MONEY_PERIOD_KINDS,
  MONEY_SERIES_LENGTH,
  NO_MONEY,
  moneyOverview,
  moneyPeriodOf,
  overviewCountersOf,
  type MoneyCounters,
  type MoneyOverview,
  type MoneyPeriodKind,
  type MoneySeries,
} from '../../shared/money.js';
import { recentPeriods } from '../../shared/series.js';
import { db, queryAll, tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';

/**
 * The admin's money overview (issue 27) is the ledger's totals per UTC day and month, never a
 * scan: the transaction that writes ledger movements ADDs what they count (overviewCountersOf)
 * to the totals item of each period they fall in, so the totals move exactly when the ledger
 * does. One Update per item, as DynamoDB allows one operation per item in a transaction.
 * Reading a period is one GetItem.
 */
export function periodTotalWrites(movements: ReadonlyArray<Pick<LedgerMovement, 'kind' | 'amount' | 'platformFee' | 'at'>>): TransactItem[] {
  const totals = new Map<string, { kind: MoneyPeriodKind; period: string; add: Partial<MoneyCounters> }>();
  for (const movement of movements) {
    const add = overviewCountersOf(movement);
    if (Object.values(add).every((value) => !value)) continue;
    for (const kind of MONEY_PERIOD_KINDS) {
      const period = moneyPeriodOf(kind, movement.at);
      const entry = totals.get(`${kind} ${period}`) ?? { kind, period, add: {} };
      for (const [name, value] of Object.entries(add) as Array<[keyof MoneyCounters, number]>) entry.add[name] = (entry.add[name] ?? 0) + value;
      totals.set(`${kind} ${period}`, entry);
    }
  }
  return [...totals.values()].map(({ kind, period, add }) => {
    const fields = Object.entries(add).filter(([, value]) => value !== 0);
    return {
      Update: {
        TableName: tableName(),
        Key: keys.moneyTotals(kind, period),
        UpdateExpression: `SET #type = :type, kind = :kind ADD ${fields.map(([name]) => `#${name} :${name}`).join(', ')}`,
        ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(fields.map(([name]) => [`#${name}`, name])) },
        ExpressionAttributeValues: { ':type': 'moneyTotals', ':kind': kind, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
      },
    };
  });
}

/** A period's counters from its totals item; zeros for a period in which nothing moved (no item). */
const countersOf = (item: Record<string, unknown> | undefined): MoneyCounters =>
  Object.fromEntries(Object.entries(NO_MONEY).map(([name, zero]) => [name, Number(item?.[name] ?? zero)])) as unknown as MoneyCounters;

export async function getMoneyOverview(kind: MoneyPeriodKind, period: string): Promise<MoneyOverview> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.moneyTotals(kind, period) }));
  return moneyOverview(kind, period, countersOf(Item));
}

/**
 * The admin's money chart (issue 48): the overview of each of the last 30 days or 12 months, up to
 * the current one. One Query of the kind's partition, its sort keys between the window's first and
 * last period (at most 30 items), and a zero period for each one without an item.
 */
export async function getMoneySeries(kind: MoneyPeriodKind, now = new Date()): Promise<MoneySeries> {
  const periods = recentPeriods(kind, MONEY_SERIES_LENGTH[kind], now);
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': keys.moneyTotals(kind, periods[0]!).pk, ':first': periods[0], ':last': periods.at(-1) },
  });
  const byPeriod = new Map(items.map((item) => [String(item.sk), item]));
  return { kind, periods: periods.map((period) => moneyOverview(kind, period, countersOf(byPeriod.get(period)))) };
}
