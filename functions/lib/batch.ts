import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../table.js';
import { db, tableName } from './db.js';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));

/** BatchWriteItem in chunks of 25, retrying unprocessed items with backoff. */
export async function batchWrite(requests: WriteRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending: WriteRequest[] = requests.slice(start, start + 25);
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 6) throw new Error('BatchWriteItem left items unprocessed');
      if (attempt) await pause(attempt);
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
    }
  }
}

/** BatchGetItem in chunks of 100, retrying unprocessed keys; returns items in key order (strongly consistent reads on request). */
export async function batchGet<T>(itemKeys: ItemKey[], options: { consistentRead?: boolean } = {}): Promise<Array<T | undefined>> {
  const found = new Map<string, T>();
  for (let start = 0; start < itemKeys.length; start += 100) {
    let pending: ItemKey[] = itemKeys.slice(start, start + 100);
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 6) throw new Error('BatchGetItem left keys unprocessed');
      if (attempt) await pause(attempt);
      const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistentRead } } }));
      for (const item of Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item as T);
      pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as ItemKey[];
    }
  }
  return itemKeys.map((key) => found.get(`${key.pk}|${key.sk}`));
}
