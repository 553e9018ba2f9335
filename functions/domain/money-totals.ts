import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MONEY_PERIOD_KINDS, NO_MONEY, moneyOverview, moneyPeriodOf, type MoneyCounters, type MoneyOverview, type MoneyPeriodKind } from '../../shared/money.js';
import { db, tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';

/**
 * The admin's money overview (issue 27) from counters, never a scan: every transaction that
 * takes or refunds a payment ADDs to the counter item of its UTC day and of its UTC month, in
 * the same transaction as the payment row's change, so a counter moves exactly when the row
 * does. Reading a period is one GetItem.
 */
export function moneyCounterWrites(at: string, add: Partial<MoneyCounters>): TransactItem[] {
  const fields = Object.entries(add).filter(([, value]) => value !== 0);
  return MONEY_PERIOD_KINDS.map((kind) => ({
    Update: {
      TableName: tableName(),
      Key: keys.moneyTotals(kind, moneyPeriodOf(kind, at)),
      UpdateExpression: `SET #type = :type, kind = :kind ADD ${fields.map(([name]) => `#${name} :${name}`).join(', ')}`,
      ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(fields.map(([name]) => [`#${name}`, name])) },
      ExpressionAttributeValues: { ':type': 'moneyTotals', ':kind': kind, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
    },
  }));
}

export async function getMoneyOverview(kind: MoneyPeriodKind, period: string): Promise<MoneyOverview> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.moneyTotals(kind, period) }));
  const counters = Object.fromEntries(Object.entries(NO_MONEY).map(([name, zero]) => [name, Number(Item?.[name] ?? zero)])) as unknown as MoneyCounters;
  return moneyOverview(kind, period, counters);
}
