/**
 * `npm run bench -- fan-out`: the live job feed's fan-out at 5,000 WebSocket connections.
 *
 * Opens BENCH_CONNECTIONS anonymous connections to the local WebSocket gateway, puts one job
 * event on the local bus and waits until every connection received it. Reports how many were
 * delivered (must equal the connections), the time from PutEvents to the last delivery, and
 * the DynamoDB reads the fan-out made (calls and consumed capacity, ReturnConsumedCapacity on
 * every call the handlers make). A fresh stack in a temporary folder, removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import WebSocket from 'ws';
import { CONNECTION_SHARDS } from '../../functions/table.js';
import { ENV, EVENT_SOURCE, JOB_EVENT } from '../../functions/routes.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import { UNTHROTTLED_GATEWAYS } from './report.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 5000);
/** Connections opened at once while setting up. */
const CONNECT_BATCH = 100;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

function connect(url: string, onMessage: () => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('message', onMessage);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

export async function runFanOutBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-bench-feed-'));
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench-feed', ...UNTHROTTLED_GATEWAYS });
  const sockets: WebSocket[] = [];
  try {
    // Imported after the stack set the handlers' environment.
    const { db } = await import('../../functions/lib/db.js');
    let reads = 0;
    let readCapacity = 0;
    let writes = 0;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const isRead = ['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand', 'ScanCommand'].includes(context.commandName ?? '');
        if (isRead) reads += 1;
        else writes += 1;
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
        if (isRead) for (const entry of [consumed ?? []].flat()) readCapacity += entry.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );

    let delivered = 0;
    let allDelivered: () => void = () => undefined;
    const everyoneHasIt = new Promise<void>((resolve) => (allDelivered = resolve));
    const onMessage = () => {
      delivered += 1;
      if (delivered === CONNECTIONS) allDelivered();
    };

    const connectStarted = performance.now();
    for (let start = 0; start < CONNECTIONS; start += CONNECT_BATCH) {
      const batch = Math.min(CONNECT_BATCH, CONNECTIONS - start);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => connect(`${stack.urls.webSocket}?token=anonymous`, onMessage)))));
    }
    console.log(`${CONNECTIONS} connections open in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`);
    reads = 0;
    readCapacity = 0;
    writes = 0;

    const started = performance.now();
    await new EventBridgeClient({ endpoint: stack.urls.events }).send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: process.env[ENV.eventBusName],
            Source: EVENT_SOURCE.jobs,
            DetailType: JOB_EVENT.removed,
            Detail: JSON.stringify({ job: { id: 'bench-job' } }),
          },
        ],
      }),
    );
    const timeout = setTimeout(() => allDelivered(), 120_000);
    await everyoneHasIt;
    clearTimeout(timeout);
    const elapsedMs = performance.now() - started;
    await stack.events.idle();
    await stack.queues.idle();

    console.log(`\nJob feed fan-out: one job event, ${CONNECTIONS} WebSocket connections, ${CONNECTION_SHARDS} shards\n`);
    console.log(`delivered           ${delivered} of ${CONNECTIONS}${delivered === CONNECTIONS ? '' : '  (MISSING DELIVERIES)'}`);
    console.log(`time to deliver all ${elapsedMs.toFixed(0)} ms`);
    console.log(`DynamoDB reads      ${reads} calls, ${readCapacity.toFixed(1)} RCU (writes: ${writes}, the other rules' included)`);
    if (delivered !== CONNECTIONS) process.exitCode = 1;
  } finally {
    for (const socket of sockets) socket.terminate();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
