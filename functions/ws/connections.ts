import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { keys } from '../table.js';
import { db, tableName } from '../lib/db.js';
import { CONNECTION_TTL_SECONDS, connectionShardOf, forgetConnection } from '../lib/sockets.js';
import { withLogContext } from '../lib/logger.js';
import { isSuspended } from '../lib/suspension.js';

type ConnectEvent = APIGatewayProxyWebsocketEventV2 & {
  requestContext: APIGatewayProxyWebsocketEventV2['requestContext'] & { authorizer?: { userId?: string } };
};

/** Remembers who is connected so that pushes reach only the affected users (and the public feed). */
async function handle(event: ConnectEvent): Promise<APIGatewayProxyResultV2> {
  const { connectionId, routeKey } = event.requestContext;
  if (routeKey === '$connect') {
    const userId = event.requestContext.authorizer?.userId ?? 'anonymous';
    // A suspended user's socket was closed; one opened again with a token from before is refused.
    if (userId !== 'anonymous' && (await isSuspended(userId))) return { statusCode: 403 };
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.connection(connectionId),
          type: 'connection',
          connectionId,
          userId,
          gsi1pk: keys.connectionsByUser(userId),
          gsi1sk: connectionId,
          gsi2pk: keys.connectionShard(connectionShardOf(connectionId)),
          gsi2sk: connectionId,
          connectedAt: new Date().toISOString(),
          expiresAt: Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS,
        },
      }),
    );
  } else if (routeKey === '$disconnect') {
    await forgetConnection(connectionId);
  }
  return { statusCode: 200 };
}

export const handler = withLogContext(handle);
