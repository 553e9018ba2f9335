import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ENV, EVENT_SOURCE, JOB_EVENT } from '../../functions/routes.js';
import { CONNECTION_SHARDS, keys } from '../../functions/table.js';
import { connectionShardOf } from '../../functions/lib/sockets.js';
import { UNTHROTTLED } from '../../infra/local/stage-throttle.js';
import { queryIndex, tableClient, useLocalStack } from '../support/local-stack.js';

const CONNECTIONS = 300;

function connect(url: string): Promise<{ socket: WebSocket; received: string[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const received: string[] = [];
    socket.on('message', (data) => received.push(data.toString()));
    socket.once('open', () => resolve({ socket, received }));
    socket.once('error', reject);
  });
}

describe('job feed fan-out over sharded connection lists', () => {
  // 300 connections opened as fast as the machine allows: beyond the stage's throttle on a fast one.
  const stack = useLocalStack({ webSocketLimits: { throttle: UNTHROTTLED } });

  it('delivers one job event exactly once to every connection of every shard and forgets a gone one', async () => {
    const clients: Array<{ socket: WebSocket; received: string[] }> = [];
    for (let start = 0; start < CONNECTIONS; start += 50) {
      clients.push(...(await Promise.all(Array.from({ length: 50 }, () => connect(`${stack().urls.webSocket}?token=anonymous`)))));
    }
    // A connection API Gateway no longer knows (closed without $disconnect reaching us).
    const goneId = 'gone-connection=';
    await tableClient(stack()).send(
      new PutCommand({
        TableName: stack().tableName,
        Item: {
          ...keys.connection(goneId),
          type: 'connection',
          connectionId: goneId,
          userId: 'anonymous',
          gsi1pk: keys.connectionsByUser('anonymous'),
          gsi1sk: goneId,
          gsi2pk: keys.connectionShard(connectionShardOf(goneId)),
          gsi2sk: goneId,
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
        },
      }),
    );

    const shardSizes = await Promise.all(
      Array.from({ length: CONNECTION_SHARDS }, async (_, shard) => (await queryIndex(stack(), 'GSI2', keys.connectionShard(shard))).length),
    );
    expect(shardSizes.reduce((sum, size) => sum + size, 0)).toBe(CONNECTIONS + 1);
    // Spread over the shards, none holding more than a few times its share.
    expect(Math.max(...shardSizes)).toBeLessThan((3 * CONNECTIONS) / CONNECTION_SHARDS);

    const bus = new EventBridgeClient({ endpoint: stack().urls.events });
    await bus.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: process.env[ENV.eventBusName], Source: EVENT_SOURCE.jobs, DetailType: JOB_EVENT.removed, Detail: JSON.stringify({ job: { id: 'job-fanned-out' } }) }],
      }),
    );
    await stack().events.idle();
    await stack().queues.idle();

    const expected = JSON.stringify({ type: 'job.removed', jobId: 'job-fanned-out' });
    await expect.poll(() => clients.reduce((sum, client) => sum + client.received.length, 0)).toBe(CONNECTIONS);
    for (const client of clients) expect(client.received).toEqual([expected]);
    const gone = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.connection(goneId) }));
    expect(gone.Item).toBeUndefined();

    for (const client of clients) client.socket.close();
  });
});
