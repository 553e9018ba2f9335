import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import type { Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { TABLE_DESIGN, type IndexName } from '../table.js';
import { db, isKeyOf, parseCursor, queryAll, tableName } from './db.js';
import { badRequest } from './errors.js';

/**
 * Reading a list written over several partitions (functions/table.ts `ShardedList`) as one
 * list: one Query per shard, in parallel, merged into the order one partition would have given.
 * The page cursor holds every shard's position.
 */

type Key = Record<string, string>;
type Item = Record<string, unknown>;

/** Where the reading of one shard stands: not begun, after a key, or at its end. */
export type ShardPosition<K> = 'start' | 'end' | { after: K };

/** One shard's Query answer: its items in page order, and the key to continue after when there are more. */
export interface ShardPage<T, K> {
  items: readonly T[];
  lastKey: K | undefined;
}

export interface MergeOptions<T, K> {
  limit: number;
  keyOf: (item: T) => K;
  /** Page order of two keys (negative: `a` first). Keys of different items never compare equal. */
  compare: (a: K, b: K) => number;
}

/** A shard as one page reads it: where it started, and its Query's answer (none when it was at its end). */
export interface ShardRead<T, K> {
  from: ShardPosition<K>;
  page?: ShardPage<T, K>;
}

/**
 * One page of the merged list from each shard's read. An item is taken only if no shard's
 * unread items could come before it: a shard with more to read holds nothing before its
 * `lastKey`, so items past the earliest such key wait for the next page (a filtered shard page
 * may end early). Each shard's next position is after its last item taken, or after its
 * `lastKey` when all its items were taken.
 */
export function mergeShardPages<T, K>(shards: ReadonlyArray<ShardRead<T, K>>, { limit, keyOf, compare }: MergeOptions<T, K>): { items: T[]; positions: Array<ShardPosition<K>> } {
  const frontiers = shards.flatMap(({ page }) => (page?.lastKey === undefined ? [] : [page.lastKey]));
  const cutoff = frontiers.reduce<K | undefined>((earliest, key) => (earliest === undefined || compare(key, earliest) < 0 ? key : earliest), undefined);
  const candidates = shards
    .flatMap(({ page }, shard) => (page?.items ?? []).map((item) => ({ item, shard, key: keyOf(item) })))
    .filter(({ key }) => cutoff === undefined || compare(key, cutoff) <= 0)
    .sort((a, b) => compare(a.key, b.key))
    .slice(0, limit);
  const lastTaken = new Map(candidates.map(({ shard, key }) => [shard, key]));
  const taken = (shard: number) => candidates.filter((candidate) => candidate.shard === shard).length;
  return {
    items: candidates.map(({ item }) => item),
    positions: shards.map(({ from, page }, shard): ShardPosition<K> => {
      if (page === undefined) return 'end';
      if (taken(shard) === page.items.length) return page.lastKey === undefined ? 'end' : { after: page.lastKey };
      const last = lastTaken.get(shard);
      return last === undefined ? from : { after: last };
    }),
  };
}

/** The cursor of a merged page: every shard's position, or null when every shard is read to its end. */
export function encodeShardCursor<K>(positions: ReadonlyArray<ShardPosition<K>>): string | null {
  return positions.every((position) => position === 'end') ? null : Buffer.from(JSON.stringify(positions)).toString('base64url');
}

/**
 * The positions a cursor holds, each checked to be exactly a key of its own shard's partition
 * (a cursor cannot open another partition); anything else is 400 'Invalid cursor'.
 */
export function decodeShardCursor(cursor: string | undefined, index: IndexName, partitions: readonly string[]): Array<ShardPosition<Key>> {
  if (cursor === undefined || cursor === '') return partitions.map(() => 'start');
  const value = parseCursor(cursor);
  const valid =
    Array.isArray(value) &&
    value.length === partitions.length &&
    partitions.every((partition, shard) => {
      const position: unknown = value[shard];
      return (
        position === 'start' ||
        position === 'end' ||
        (typeof position === 'object' &&
          position !== null &&
          Object.keys(position).length === 1 &&
          isKeyOf((position as { after?: unknown }).after, { index, partition }))
      );
    });
  if (!valid) throw badRequest(MSG.backend.invalidCursor);
  return value as Array<ShardPosition<Key>>;
}

/** A list's query without its partition: the index, and any filter with its values. */
export type ShardQuery = Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> & { IndexName: IndexName };

/**
 * One page of a list, newest first (descending sort key), over the partitions of its shards:
 * one Query of `limit` items per shard not yet at its end, in parallel, merged in order.
 */
export async function queryShardedPage<T = Record<string, NativeAttributeValue>>(partitions: readonly string[], query: ShardQuery, limit: number, cursor: string | undefined): Promise<Page<T>> {
  const positions = decodeShardCursor(cursor, query.IndexName, partitions);
  const index = TABLE_DESIGN.indexes[query.IndexName];
  const shards = await Promise.all(
    partitions.map(async (partition, shard): Promise<ShardRead<Item, Key>> => {
      const from = positions[shard] ?? 'start';
      if (from === 'end') return { from };
      const { Items = [], LastEvaluatedKey } = await db.send(
        new QueryCommand({
          ...query,
          TableName: tableName(),
          KeyConditionExpression: '#shardpk = :shardpk',
          ExpressionAttributeNames: { ...query.ExpressionAttributeNames, '#shardpk': index.partitionKey },
          ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':shardpk': partition },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: from === 'start' ? undefined : from.after,
        }),
      );
      return { from, page: { items: Items, lastKey: LastEvaluatedKey as Key | undefined } };
    }),
  );
  const keyOf = (item: Item): Key =>
    Object.fromEntries([TABLE_DESIGN.partitionKey, TABLE_DESIGN.sortKey, index.partitionKey, index.sortKey].map((name) => [name, String(item[name])]));
  // Newest first: the larger index sort key first (by code unit, which is DynamoDB's byte order for these ASCII keys; not by locale); the table key breaks a tie between shards.
  const compare = (a: Key, b: Key) =>
    descending(a[index.sortKey] ?? '', b[index.sortKey] ?? '') || descending(a[TABLE_DESIGN.partitionKey] ?? '', b[TABLE_DESIGN.partitionKey] ?? '');
  const merged = mergeShardPages(shards, { limit, keyOf, compare });
  return { items: merged.items as T[], nextCursor: encodeShardCursor(merged.positions) };
}

const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

/** Every item of a list bounded by the domain (a market or category each), all shards read in parallel. */
export async function queryEveryShard<T>(
  partitions: readonly string[],
  query: ShardQuery & Pick<QueryCommandInput, 'ProjectionExpression'> & { /** A condition on the sort key, if any. */ KeyConditionExpression?: string },
): Promise<T[]> {
  const index = TABLE_DESIGN.indexes[query.IndexName];
  const shards = await Promise.all(
    partitions.map((partition) =>
      queryAll<T>({
        ...query,
        KeyConditionExpression: ['#shardpk = :shardpk', ...(query.KeyConditionExpression ? [query.KeyConditionExpression] : [])].join(' AND '),
        ExpressionAttributeNames: { ...query.ExpressionAttributeNames, '#shardpk': index.partitionKey },
        ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':shardpk': partition },
      }),
    ),
  );
  return shards.flat();
}
