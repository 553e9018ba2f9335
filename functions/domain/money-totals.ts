import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerMovement } from '../../shared/ledger.js';
import { MONEY_PERIOD_KINDS, NO_MONEY, moneyOverview, moneyPeriodOf, overviewCountersOf, type MoneyCounters, type MoneyOverview, type MoneyPeriodKind } from '../../shared/money.js';
import { db, tableName } from '../lib/db.js';
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

export async function getMoneyOverview(kind: MoneyPeriodKind, period: string): Promise<MoneyOverview> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.moneyTotals(kind, period) }));
  const counters = Object.fromEntries(Object.entries(NO_MONEY).map(([name, zero]) => [name, Number(Item?.[name] ?? zero)])) as unknown as MoneyCounters;
  return moneyOverview(kind, period, counters);
}
