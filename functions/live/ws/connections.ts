import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import * as z from '../../../shared/zod.js';
import { ANONYMOUS_PRINCIPAL, LIVE_LIMITS } from '../../../shared/live.js';
import { keys } from '../../table.js';
import { db, tableName } from '../../lib/db.js';
import { CONNECTION_TTL_SECONDS, forgetConnection } from '../../lib/sockets.js';
import { logger, withLogContext } from '../../lib/logger.js';
import { isSuspended } from '../../lib/suspension.js';
import { spendClientBudget } from '../../lib/client-budget.js';
import { pong, subscribe, unsubscribe } from '../live-feed.js';

type ConnectionEvent = APIGatewayProxyWebsocketEventV2 & {
  // identity: API Gateway sends it on every WebSocket event; @types/aws-lambda leaves it out.
  requestContext: APIGatewayProxyWebsocketEventV2['requestContext'] & { authorizer?: { userId?: string }; identity: { sourceIp: string } };
};

const topicNames = z.array(z.string().check(z.maxLength(LIVE_LIMITS.topicLength))).check(z.maxLength(LIVE_LIMITS.topicsPerMessage));
/** What a browser may send (shared/live.ts LiveRequest); anything else is ignored. */
const liveRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('subscribe'), topics: topicNames, since: z.optional(z.string().check(z.maxLength(LIVE_LIMITS.topicLength))) }),
  z.object({ action: z.literal('unsubscribe'), topics: topicNames }),
  z.object({ action: z.literal('ping') }),
]);

function parseRequest(body: string | undefined): z.infer<typeof liveRequest> | undefined {
  try {
    const parsed = liveRequest.safeParse(JSON.parse(body ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remembers who is connected so that pushes reach only the affected users, and serves what a
 * connection sends: subscriptions to the live topics it shows, and pings that keep it open.
 */
async function handle(event: ConnectionEvent): Promise<APIGatewayProxyResultV2> {
  const { connectionId, routeKey } = event.requestContext;
  const authorized = event.requestContext.authorizer?.userId ?? ANONYMOUS_PRINCIPAL;
  const userId = authorized === ANONYMOUS_PRINCIPAL ? null : authorized;
  if (routeKey === '$connect') {
    // A suspended user's socket was closed; one opened again with a token from before is refused.
    if (userId && (await isSuspended(userId))) return { statusCode: 403 };
    // A user's connects count by user, a visitor's by the address API Gateway saw.
    const budget = await spendClientBudget('clientConnects', userId ?? `ip:${event.requestContext.identity.sourceIp}`);
    if (!budget.allowed) return { statusCode: 429 };
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.connection(connectionId),
          type: 'connection',
          connectionId,
          userId: authorized,
          // Only a signed-in user's connections are found by user (pushes to them).
          ...(userId ? { gsi1pk: keys.connectionsByUser(userId), gsi1sk: connectionId } : {}),
          connectedAt: new Date().toISOString(),
          expiresAt: Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS,
        },
      }),
    );
  } else if (routeKey === '$disconnect') {
    await forgetConnection(connectionId);
  } else {
    const request = parseRequest(event.body);
    if (!request) logger.info('live request ignored', { connectionId });
    else if (request.action === 'ping') await pong(connectionId);
    else if (request.action === 'subscribe') await subscribe(connectionId, userId, request.topics, request.since);
    else await unsubscribe(connectionId, userId, request.topics);
  }
  return { statusCode: 200 };
}

export const handler = withLogContext(handle);
