import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { CONNECTION_SHARDS, keys, shardOf } from '../table.js';
import { batchWrite } from './batch.js';
import { db, tableName } from './db.js';
import { env } from './env.js';
import { logger } from './logger.js';

/** Connections live for at most two hours on API Gateway; the item's TTL matches. */
export const CONNECTION_TTL_SECONDS = 2 * 3600;

/** At most this many pushes are in flight at once. */
export const PUSH_BATCH_SIZE = 100;

let client: ApiGatewayManagementApiClient | undefined;
const management = () => (client ??= new ApiGatewayManagementApiClient({ endpoint: env('socketsEndpoint') }));

/** The shard of a connection's live subscriptions: a stable hash of its id, so no lookup is needed and it never moves. */
export const connectionShardOf = (connectionId: string): number => shardOf(connectionId, CONNECTION_SHARDS);

/**
 * Live connection ids of one partition of the table or an index, page by page (expired ones
 * filtered out). A page is DynamoDB's own (1 MB, some 10,000 subscriptions): a Query costs the
 * data it reads however it is paged, and fewer pages are fewer round trips before the pushes.
 */
async function* connectionIds(index: 'GSI1' | undefined, partition: string, idAttribute: 'connectionId' | 'sk'): AsyncGenerator<string> {
  let startKey: Record<string, unknown> | undefined;
  const now = Math.floor(Date.now() / 1000);
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeNames: { '#pk': index ? `${index.toLowerCase()}pk` : 'pk', '#id': idAttribute },
        ExpressionAttributeValues: { ':pk': partition, ':now': now },
        ProjectionExpression: '#id',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) yield item[idAttribute] as string;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** The connections of one shard subscribed to a live topic ("SUB#<topic>#<shard>"). */
export const subscriberIds = (topic: string, shard: number) => connectionIds(undefined, keys.subscribers(topic, shard), 'sk');

/** The connections of one user (GSI1 "CONNS#<userId>"). */
export const userConnectionIds = (userId: string) => connectionIds('GSI1', keys.connectionsByUser(userId), 'connectionId');

/** What a connection item holds besides its keys (functions/live/ws/connections.ts writes it). */
export interface ConnectionItem {
  connectionId: string;
  userId: string;
  /** The live topics it subscribed to, as the server names them (functions/live/live-feed.ts). */
  topics?: Set<string>;
  expiresAt: number;
}

/** The subscription items of a connection's topics (each in its shard's partition of the topic). */
export const subscriptionKeys = (connectionId: string, topics: Iterable<string>) =>
  [...topics].map((topic) => keys.subscription(topic, connectionShardOf(connectionId), connectionId));

/** Deletes a connection and its subscriptions (their TTL is the backstop if this never runs). */
export async function forgetConnection(connectionId: string): Promise<void> {
  const { Attributes } = await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.connection(connectionId), ReturnValues: 'ALL_OLD' }));
  const topics = (Attributes as ConnectionItem | undefined)?.topics ?? [];
  await batchWrite(subscriptionKeys(connectionId, topics).map((Key) => ({ DeleteRequest: { Key } })));
}

/**
 * Closes every live connection of a user (@connections DELETE) and forgets it: a suspended
 * user's open pages stop receiving anything at once. Answers how many were closed.
 */
export async function closeUserConnections(userId: string): Promise<number> {
  let closed = 0;
  for await (const connectionId of userConnectionIds(userId)) {
    try {
      await management().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      closed++;
    } catch (error) {
      if (!(error instanceof GoneException)) throw error;
    }
    await forgetConnection(connectionId);
  }
  return closed;
}

/** Posts to one connection; a connection that is gone (410) is forgotten. */
export async function pushToConnection(connectionId: string, data: Uint8Array): Promise<boolean> {
  try {
    await management().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
    return true;
  } catch (error) {
    if (error instanceof GoneException) await forgetConnection(connectionId);
    else logger.warn('push failed', { connectionId, error });
    return false;
  }
}

/**
 * Sends one message to each connection, PUSH_BATCH_SIZE at a time, so neither the sockets nor
 * the management API see an unbounded burst. Returns how many were delivered.
 */
export async function pushToConnections(connectionIds: AsyncIterable<string> | Iterable<string>, message: object): Promise<number> {
  const data = Buffer.from(JSON.stringify(message));
  let delivered = 0;
  let batch: string[] = [];
  const flush = async () => {
    delivered += (await Promise.all(batch.map((id) => pushToConnection(id, data)))).filter(Boolean).length;
    batch = [];
  };
  for await (const connectionId of connectionIds) {
    batch.push(connectionId);
    if (batch.length === PUSH_BATCH_SIZE) await flush();
  }
  await flush();
  return delivered;
}
