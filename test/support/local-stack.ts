import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { localDynamoDbClient } from '../../infra/local/dynamodb.js';
import { RANDOM_PORTS, startLocalStack, type LocalStack, type LocalStackOptions } from '../../infra/local/stack.js';

export * from './stack-api.js';

/**
 * Starts a whole local stack for one test file — one per file: handler modules keep the SDK
 * clients they created, bound to the first stack's endpoints (its own table, user pool and ports, sharing
 * the run's DynamoDB Local) and stops it afterwards. Use the returned getter inside tests.
 */
export function useLocalStack(options: Pick<LocalStackOptions, 'webSocketLimits' | 'httpLimits' | 'autoReleaseSeconds' | 'reviewPublicationSeconds' | 'liveCoalescingSeconds' | 'clientBudgetPerMinute'> = {}): () => LocalStack {
  let stack: LocalStack | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-test-'));
    stack = await startLocalStack({
      dataDir,
      ports: RANDOM_PORTS,
      dynamoDbEndpoint: inject('dynamoDbEndpoint'),
      tableName: `test-${randomUUID()}`,
      ...options,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('local stack not started');
    return stack;
  };
}

/** A document client on the stack's table, for assertions on what was (or was not) written. */
export function tableClient(stack: LocalStack) {
  return DynamoDBDocumentClient.from(localDynamoDbClient(stack.urls.dynamodb));
}

/** Every item of a GSI partition (tests only: a small partition, read in full). */
export async function queryIndex(stack: LocalStack, index: 'GSI1' | 'GSI2' | 'GSI3', partition: string) {
  const attribute = `${index.toLowerCase()}pk`;
  const { Items = [] } = await tableClient(stack).send(
    new QueryCommand({
      TableName: stack.tableName,
      IndexName: index,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': attribute },
      ExpressionAttributeValues: { ':pk': partition },
    }),
  );
  return Items;
}
