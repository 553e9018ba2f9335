import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../table.js';
import { db, tableName } from './db.js';
import { env } from './env.js';
import { logger } from './logger.js';

/** Connections live for at most two hours on API Gateway; the item's TTL matches. */
export const CONNECTION_TTL_SECONDS = 2 * 3600;

let client: ApiGatewayManagementApiClient | undefined;
const management = () => (client ??= new ApiGatewayManagementApiClient({ endpoint: env('socketsEndpoint') }));

/** Live connection ids of one index partition, page by page (expired ones filtered out). */
async function* connectionIds(index: 'GSI1' | 'GSI2', partition: string): AsyncGenerator<string> {
  let startKey: Record<string, unknown> | undefined;
  const now = Math.floor(Date.now() / 1000);
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeNames: { '#pk': `${index.toLowerCase()}pk` },
        ExpressionAttributeValues: { ':pk': partition, ':now': now },
        ProjectionExpression: 'connectionId',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) yield item.connectionId as string;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every live connection (GSI2 "CONNS"): the public job feed. */
export const allConnectionIds = () => connectionIds('GSI2', keys.allConnections());

/** The connections of one user (GSI1 "CONNS#<userId>"). */
export const userConnectionIds = (userId: string) => connectionIds('GSI1', keys.connectionsByUser(userId));

export async function forgetConnection(connectionId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.connection(connectionId) }));
}

/** Sends one message to each connection; connections that are gone are forgotten. */
export async function pushToConnections(connectionIds: AsyncIterable<string> | Iterable<string>, message: object): Promise<number> {
  const data = Buffer.from(JSON.stringify(message));
  const sends: Promise<boolean>[] = [];
  for await (const connectionId of connectionIds) {
    sends.push(
      management()
        .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }))
        .then(() => true)
        .catch(async (error: unknown) => {
          if (error instanceof GoneException) await forgetConnection(connectionId);
          else logger.warn('push failed', { connectionId, error });
          return false;
        }),
    );
  }
  return (await Promise.all(sends)).filter(Boolean).length;
}
