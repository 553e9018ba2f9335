import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FEED_TOPIC } from '../../shared/live.js';
import { ENV, EVENT_SOURCE, JOB_EVENT } from '../../functions/routes.js';
import { CONNECTION_SHARDS, keys } from '../../functions/table.js';
import { connectionShardOf } from '../../functions/lib/sockets.js';
import { UNTHROTTLED } from '../../infra/local/stage-throttle.js';
import { tableClient, useLocalStack } from '../support/local-stack.js';
import { LiveSocket } from '../support/live-socket.js';

const CONNECTIONS = 300;

describe('job feed fan-out over sharded subscriptions', () => {
  // 300 connections opened as fast as the machine allows, all from this address: beyond the
  // stage's throttle on a fast one, and beyond one visitor's connect budget.
  const stack = useLocalStack({ webSocketLimits: { throttle: UNTHROTTLED }, clientBudgetPerMinute: Infinity });

  it('delivers one job event exactly once to every subscribed connection of every shard, to no other, and forgets a gone one', async () => {
    const clients: LiveSocket[] = [];
    for (let start = 0; start < CONNECTIONS; start += 50) {
      clients.push(...(await Promise.all(Array.from({ length: 50 }, () => LiveSocket.open(stack().urls.webSocket)))));
    }
    // Two in three show the feed; the others show nothing live.
    const subscribed = clients.filter((_, i) => i % 3 !== 0);
    const others = clients.filter((_, i) => i % 3 === 0);
    for (let start = 0; start < subscribed.length; start += 50) await Promise.all(subscribed.slice(start, start + 50).map((client) => client.subscribe([FEED_TOPIC])));

    // A connection API Gateway no longer knows (closed without $disconnect reaching us).
    const goneId = 'gone-connection=';
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const table = tableClient(stack());
    await table.send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.connection(goneId), type: 'connection', connectionId: goneId, userId: 'anonymous', topics: new Set([FEED_TOPIC]), expiresAt } }));
    await table.send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.subscription(FEED_TOPIC, connectionShardOf(goneId), goneId), expiresAt } }));

    const shardSizes = await Promise.all(
      Array.from({ length: CONNECTION_SHARDS }, async (_, shard) => {
        const { Items = [] } = await table.send(
          new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.subscribers(FEED_TOPIC, shard) } }),
        );
        return Items.length;
      }),
    );
    expect(shardSizes.reduce((sum, size) => sum + size, 0)).toBe(subscribed.length + 1);
    // Spread over the shards, none holding more than a few times its share.
    expect(Math.max(...shardSizes)).toBeLessThan((3 * subscribed.length) / CONNECTION_SHARDS);

    const bus = new EventBridgeClient({ endpoint: stack().urls.events });
    await bus.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: process.env[ENV.eventBusName], Source: EVENT_SOURCE.jobs, DetailType: JOB_EVENT.removed, Detail: JSON.stringify({ job: { id: 'job-fanned-out' }, change: 'deleted' }) }],
      }),
    );
    await stack().events.idle();
    await stack().queues.idle();

    await expect.poll(() => subscribed.reduce((sum, client) => sum + client.jobPushes().length, 0)).toBe(subscribed.length);
    for (const client of subscribed) expect(client.jobPushes()).toEqual([{ type: 'job.removed', jobId: 'job-fanned-out', cursor: expect.any(String) }]);
    for (const client of others) expect(client.frames).toEqual([]);
    const gone = await table.send(new GetCommand({ TableName: stack().tableName, Key: keys.connection(goneId) }));
    expect(gone.Item).toBeUndefined();
    const goneSubscription = await table.send(new GetCommand({ TableName: stack().tableName, Key: keys.subscription(FEED_TOPIC, connectionShardOf(goneId), goneId) }));
    expect(goneSubscription.Item).toBeUndefined();

    await Promise.all(clients.map((client) => client.close()));
  }, 120_000);
});
