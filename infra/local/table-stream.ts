import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse } from 'aws-lambda';
import type { StreamConsumer } from '../../functions/routes.js';
import { localDynamoDbClient } from './dynamodb.js';
import { matchesPattern } from './event-pattern.js';
import { invoke } from './lambda-runtime.js';

/** One consumer reading the table's stream, as a Lambda event source mapping would. */
export interface TableStreamReader {
  /** Hands every record written so far to the consumer; answers how many it took. */
  drain(): Promise<number>;
  /** Stops polling (a stopped reader's drain does nothing). */
  stop(): Promise<void>;
  /** Polls again, from the position saved on disk: a restarted relay. */
  start(): void;
}

const POLL_MS = 250;
const PAGE_SIZE = 100;

/** Where the reader is in each shard of the stream, kept on disk like the mapping's own checkpoint. */
interface Checkpoint {
  streamArn: string;
  /** The last sequence number handed over (or filtered out) per shard. */
  positions: Record<string, string>;
  /** Shards read to their end. */
  finished: string[];
}

/** Records as Lambda hands them over (the creation time in epoch seconds). */
function lambdaRecord(record: StreamRecord, streamArn: string) {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    ...record,
    eventSourceARN: streamArn,
    dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: created ? Math.floor(created.getTime() / 1000) : undefined },
  };
}

/**
 * The local stand-in for a DynamoDB stream's Lambda event source mapping: reads DynamoDB Local's
 * stream of the table, keeps the records the consumer's declared filter selects, and invokes
 * the consumer's handler with them in order. A batch item failure (or a thrown error) stops
 * the shard at that record until the next poll, so nothing after it overtakes it; the position
 * is saved to `checkpointFile` after each batch, so a restart resumes where it stopped.
 */
export function readTableStream(options: {
  endpoint: string;
  tableName: string;
  name: string;
  consumer: StreamConsumer;
  checkpointFile: string;
}): TableStreamReader {
  const dynamodb = localDynamoDbClient(options.endpoint);
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const iterators = new Map<string, string>();
  let checkpoint: Checkpoint | undefined;
  let shardIds: string[] = [];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const save = (current: Checkpoint) => writeFileSync(options.checkpointFile, JSON.stringify(current));

  async function loadShards(): Promise<Checkpoint> {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: options.tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`${options.tableName} has no stream`);
    const saved = existsSync(options.checkpointFile) ? (JSON.parse(readFileSync(options.checkpointFile, 'utf8')) as Checkpoint) : undefined;
    const current: Checkpoint = saved?.streamArn === streamArn ? saved : { streamArn, positions: {}, finished: [] };
    shardIds = [];
    let startShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: startShardId }));
      shardIds.push(...(StreamDescription?.Shards ?? []).map((shard) => shard.ShardId!));
      startShardId = StreamDescription?.LastEvaluatedShardId;
    } while (startShardId);
    return current;
  }

  async function iteratorOf(current: Checkpoint, shardId: string): Promise<string | undefined> {
    const known = iterators.get(shardId);
    if (known) return known;
    const position = current.positions[shardId];
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: current.streamArn,
        ShardId: shardId,
        ...(position ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** Hands one page of records over; false when the consumer failed on one of them. */
  async function deliver(current: Checkpoint, shardId: string, records: StreamRecord[]): Promise<{ delivered: number; failed: boolean }> {
    const selected = records.filter((record) => matchesPattern(options.consumer.filter, record as unknown as Record<string, unknown>));
    let failedAt: string | undefined;
    if (selected.length) {
      try {
        const response = (await invoke(options.name, options.consumer, {
          Records: selected.map((record) => lambdaRecord(record, current.streamArn)),
        })) as DynamoDBBatchResponse | undefined;
        failedAt = response?.batchItemFailures[0]?.itemIdentifier;
      } catch (error) {
        console.error(`[streams] ${options.name} failed`, error);
        failedAt = selected[0]!.dynamodb?.SequenceNumber;
      }
    }
    const failedIndex = failedAt === undefined ? -1 : records.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt);
    const handled = failedIndex < 0 ? records : records.slice(0, failedIndex);
    const last = handled.at(-1)?.dynamodb?.SequenceNumber;
    if (last) current.positions[shardId] = last;
    save(current);
    const delivered = selected.filter((record) => handled.includes(record)).length;
    return { delivered, failed: failedIndex >= 0 };
  }

  /** Reads every shard to its current end once; answers the number of records delivered. */
  async function poll(): Promise<number> {
    checkpoint ??= await loadShards();
    const current = checkpoint;
    let delivered = 0;
    let shardClosed = false;
    for (const shardId of shardIds) {
      if (current.finished.includes(shardId)) continue;
      for (;;) {
        const iterator = await iteratorOf(current, shardId);
        if (!iterator) break;
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: PAGE_SIZE }));
        const records = page.Records ?? [];
        const result = records.length ? await deliver(current, shardId, records) : { delivered: 0, failed: false };
        delivered += result.delivered;
        if (result.failed) {
          // Read again from the saved position next time: the failed record comes first.
          iterators.delete(shardId);
          return delivered;
        }
        if (!page.NextShardIterator) {
          current.finished.push(shardId);
          iterators.delete(shardId);
          save(current);
          shardClosed = true;
          break;
        }
        iterators.set(shardId, page.NextShardIterator);
        if (!records.length) break;
      }
    }
    // A closed shard has children that the next poll must find.
    if (shardClosed) checkpoint = undefined;
    return delivered;
  }

  /** One poll at a time, in order: the timer's and drain's never overlap. */
  function serialised(): Promise<number> {
    const next = queue.then(() => (running ? poll() : 0));
    queue = next.catch((error: unknown) => console.error(`[streams] ${options.name}: reading the stream failed`, error));
    return next;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void serialised()
        .catch(() => undefined)
        .finally(() => running && schedule());
    }, POLL_MS);
  }

  const reader: TableStreamReader = {
    async drain() {
      let total = 0;
      for (let delivered = await serialised(); delivered > 0; delivered = await serialised()) total += delivered;
      return total;
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await queue;
    },
    start() {
      if (running) return;
      running = true;
      checkpoint = undefined;
      iterators.clear();
      schedule();
    },
  };
  reader.start();
  return reader;
}
