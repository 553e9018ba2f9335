import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerMovement } from '../../shared/ledger.js';
import { conditionHeld, db, queryAll, tableName } from '../lib/db.js';
import { transactWrite, type TransactItem } from '../lib/transactions.js';
import { periodTotalWrites } from './money-totals.js';
import { keys, timeOrdered } from '../table.js';

/** The ledger scope of a job's money, and of a worker's own (payouts). */
export const jobScope = (jobId: string) => `job:${jobId}`;
export const workerScope = (workerId: string) => `worker:${workerId}`;

/** A movement to write: its time is the write's; `settled` when Stripe already confirmed it (written from its webhook, or final in its answer). */
export type NewMovement = Omit<LedgerMovement, 'at' | 'settledAt'> & { settled?: boolean };

/**
 * The Put of one movement, for the transaction of the change that causes it. Its condition
 * (the key is new) makes a movement written twice refuse the whole transaction, so a change
 * that moves money cannot be applied twice either. A zero amount moves nothing and writes nothing.
 */
export function movementPut(movement: NewMovement, at = new Date().toISOString()): TransactItem[] {
  if (movement.amount === 0) return [];
  if (!Number.isInteger(movement.amount) || movement.amount < 0) throw new Error(`ledger amount must be a positive integer of cents: ${movement.amount}`);
  const id = `${movement.scope}#${movement.movementId}`;
  const item: LedgerMovement & Record<string, unknown> = {
    ...keys.ledgerMovement(movement.scope, movement.movementId),
    type: 'ledgerMovement',
    scope: movement.scope,
    movementId: movement.movementId,
    kind: movement.kind,
    from: movement.from,
    to: movement.to,
    amount: movement.amount,
    ...(movement.stripe ? { stripe: movement.stripe } : {}),
    ...(movement.platformFee ? { platformFee: movement.platformFee } : {}),
    at,
    ...(movement.settled ? { settledAt: at } : {}),
    gsi1pk: keys.ledgerLog().partitionOf(id),
    gsi1sk: timeOrdered(at, id),
  };
  return [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/**
 * Writes a transaction that moves money: its items with the period totals its ledger movements
 * add (money-totals.ts), so the admin's money overview is the ledger's sum. Every transaction
 * with a movementPut goes through here.
 */
export async function transactLedger(items: TransactItem[]): Promise<void> {
  const movements = items.flatMap((item) => (item.Put?.Item?.type === 'ledgerMovement' ? [item.Put.Item as LedgerMovement] : []));
  await transactWrite([...items, ...periodTotalWrites(movements)]);
}

/** Every movement of one scope, oldest first ("where is every cent of job X"). */
export async function movementsOf(scope: string): Promise<LedgerMovement[]> {
  const items = await queryAll<LedgerMovement>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.ledgerPartition(scope) },
    ConsistentRead: true,
  });
  // A transaction's movements share their time and happen at once: what enters an escrow is
  // listed before what leaves it, so a reading in this order (the escrow never negative at any
  // point) does not see a reversal's refund before the reversal and fee return that fund it.
  const entering = (movement: LedgerMovement) => (movement.to.startsWith('escrow:') ? 0 : 1);
  return items.sort((a, b) => a.at.localeCompare(b.at) || entering(a) - entering(b) || a.movementId.localeCompare(b.movementId));
}

/**
 * Marks a movement settled when Stripe's webhook confirms its object (once; a movement not yet
 * written, or settled already, is left alone and answered false).
 */
export async function settleMovement(scope: string, movementId: string, stripeId: string): Promise<boolean> {
  return conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.ledgerMovement(scope, movementId),
        UpdateExpression: 'SET settledAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(settledAt) AND #stripe.id = :id',
        ExpressionAttributeNames: { '#stripe': 'stripe' },
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':id': stripeId },
      }),
    ),
  );
}
