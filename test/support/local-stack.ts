import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { localDynamoDbClient, startDynamoDbLocal, type LocalDynamoDb } from '../../infra/local/dynamodb.js';
import { freePort } from '../../infra/local/processes.js';
import { RANDOM_PORTS, startLocalStack, type LocalStack, type LocalStackOptions } from '../../infra/local/stack.js';
import type { ShardedList } from '../../functions/table.js';

export * from './stack-api.js';

/**
 * Starts a whole local stack for one test file — one per file: handler modules keep the SDK
 * clients they created, bound to the first stack's endpoints (its own table, user pool and
 * ports) and stops it afterwards. Use the returned getter inside tests.
 *
 * Each file gets its own in-memory DynamoDB Local, stopped with it: DynamoDB Local keeps every
 * stream record of every table it ever held, and each write looks up its stream's first record
 * by scanning the records before it, so one engine shared by the run slows every write of a
 * later file by all the writes of the files before it.
 */
export function useLocalStack(options: Pick<LocalStackOptions, 'webSocketLimits' | 'httpLimits' | 'autoReleaseSeconds' | 'reviewPublicationSeconds' | 'liveCoalescingSeconds' | 'clientBudgetPerMinute' | 'secretMaxAgeSeconds'> = {}): () => LocalStack {
  let stack: LocalStack | undefined;
  let dynamodb: LocalDynamoDb | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-test-'));
    dynamodb = await startDynamoDbLocal({ port: await freePort(), shortLived: true });
    stack = await startLocalStack({
      dataDir,
      ports: RANDOM_PORTS,
      dynamoDbEndpoint: dynamodb.endpoint,
      tableName: `test-${randomUUID()}`,
      // Every stack-wide settle (events.idle()) would wait out the live feed's coalescing window;
      // only the tests of coalescing open one (live-subscriptions.test.ts).
      liveCoalescingSeconds: 0,
      ...options,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await dynamodb?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('local stack not started');
    return stack;
  };
}

/**
 * A document client on the stack's table, for assertions on what was (or was not) written. It
 * tries a read twice as often as the SDK's default: on a machine running two CI lanes, a test's
 * SDK read of a local emulator failed with ECONNRESET after the default three tries (the key
 * rotation test's), failing the test rather than the product.
 */
export function tableClient(stack: LocalStack) {
  return DynamoDBDocumentClient.from(localDynamoDbClient(stack.urls.dynamodb, 6));
}

/** Every item of a GSI partition, or of every shard of a sharded list (tests only: small partitions, read in full). */
export async function queryIndex(stack: LocalStack, index: 'GSI1' | 'GSI2' | 'GSI3', partition: string | ShardedList) {
  const attribute = `${index.toLowerCase()}pk`;
  const partitions = typeof partition === 'string' ? [partition] : partition.partitions;
  const shards = await Promise.all(
    partitions.map(async (value) => {
      const { Items = [] } = await tableClient(stack).send(
        new QueryCommand({
          TableName: stack.tableName,
          IndexName: index,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': attribute },
          ExpressionAttributeValues: { ':pk': value },
        }),
      );
      return Items;
    }),
  );
  return shards.flat();
}
