import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { JOB_STATUSES } from '../shared/job-process.js';
import { isConditionFailure } from '../functions/lib/db.js';
import { keys, type ShardedList } from '../functions/table.js';

/**
 * `npm run backfill:list-shards -- --table <name>`: moves the items of the platform-wide lists
 * from the one GSI1 partition they were written to before issue 24 (`JOBS#open`, `PAYMENTS`,
 * `ADMINACTIONS`, `MARKETS`, `MARKETDAYS`, `CATEGORIES`, and every other job status) to their
 * shard's partition, where the lists now read them. Until it runs, such items are stored but
 * missing from their list. Safe to run again and while the app runs: each move is conditional on
 * the item still being under the old partition (a writer that rewrote it meanwhile wins).
 */

type Item = Record<string, NativeAttributeValue>;

/** Each list's partition before sharding, and which of an item's attributes its shard is a hash of (as the writers hash it). */
const UNSHARDED_LISTS: ReadonlyArray<{ partition: string; list: ShardedList; shardId: (item: Item) => string }> = [
  ...JOB_STATUSES.map((status) => ({ partition: `JOBS#${status}`, list: keys.jobsByStatus(status), shardId: (job: Item) => String(job.id) })),
  { partition: 'PAYMENTS', list: keys.paymentsLog(), shardId: (payment) => String(payment.id) },
  { partition: 'ADMINACTIONS', list: keys.adminActionsLog(), shardId: (action) => String(action.id) },
  { partition: 'MARKETS', list: keys.allMarkets(), shardId: (totals) => String(totals.market).toLowerCase() },
  { partition: 'MARKETDAYS', list: keys.marketDays(), shardId: (day) => String(day.market).toLowerCase() },
  { partition: 'CATEGORIES', list: keys.allCategories(), shardId: (totals) => String(totals.category) },
];

/** Moves in flight at once: a scan page's moves are spread over the shards, well below a partition's write rate. */
const PARALLEL_MOVES = 25;

export interface BackfillResult {
  /** Items moved to their shard's partition. */
  readonly moved: number;
  /** Items a writer had already moved (or changed lists) between the scan and the move. */
  readonly skipped: number;
}

export async function backfillListShards(db: DynamoDBDocumentClient, tableName: string): Promise<BackfillResult> {
  const byPartition = new Map(UNSHARDED_LISTS.map((entry) => [entry.partition, entry]));
  const names = [...byPartition.keys()];
  let [moved, skipped] = [0, 0];
  let startKey: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: `gsi1pk IN (${names.map((_, i) => `:p${i}`).join(', ')})`,
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:p${i}`, name])),
        ExclusiveStartKey: startKey,
      }),
    );
    const items = page.Items ?? [];
    for (let start = 0; start < items.length; start += PARALLEL_MOVES) {
      const outcomes = await Promise.all(
        items.slice(start, start + PARALLEL_MOVES).map(async (item) => {
          const { list, shardId } = byPartition.get(String(item.gsi1pk))!;
          try {
            await db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: { pk: item.pk, sk: item.sk },
                UpdateExpression: 'SET gsi1pk = :shard',
                ConditionExpression: 'gsi1pk = :unsharded',
                ExpressionAttributeValues: { ':shard': list.partitionOf(shardId(item)), ':unsharded': item.gsi1pk },
              }),
            );
            return true;
          } catch (error) {
            if (isConditionFailure(error)) return false;
            throw error;
          }
        }),
      );
      moved += outcomes.filter(Boolean).length;
      skipped += outcomes.filter((outcome) => !outcome).length;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { moved, skipped };
}

/** With the AWS credentials and region of the deployment; `--table`: the data stack's table name. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { table: { type: 'string' } } });
  if (!values.table) throw new Error('Usage: npm run backfill:list-shards -- --table <the DynamoDB table of the data stack>');
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { moved, skipped } = await backfillListShards(db, values.table);
  console.log(`${moved} list items moved to their shard, ${skipped} already moved by the app.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
