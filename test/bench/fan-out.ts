/**
 * `npm run bench -- fan-out`: the live job feed's fan-out to subscribed WebSocket connections.
 *
 * Opens BENCH_CONNECTIONS (10,000) anonymous connections to the local WebSocket gateway, each
 * subscribed to one of BENCH_SUBSCRIPTIONS (100) job topics, and 1,000 of them (at most all)
 * also to one more job's topic. Then it puts two job changes on the local bus, one at a time:
 * one of the 100 jobs (an application: only its page shows it) and the 1,000-socket job. For
 * each it reports the pushes the sockets received against the sockets subscribed to it (the
 * budget: at most 1.1), the DynamoDB reads the job feed's functions made (budget: 1 + shards)
 * and the time from PutEvents to the last delivery, which includes the coalescing window.
 * The sockets live in a child process (test/bench/fan-out-clients.ts), so the gateway and the
 * clients each have their own descriptor limit. A fresh stack in a temporary folder, removed
 * afterwards. Measured values, never asserted.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { CONNECTION_SHARDS } from '../../functions/table.js';
import { ENV, EVENT_SOURCE, JOB_EVENT, LIVE_COALESCING, type QUEUE_CONSUMERS } from '../../functions/routes.js';
import { ruleFunctionName } from '../../infra/local/eventbridge.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import type { ClientCommand, ClientReply } from './fan-out-clients.js';
import { UNTHROTTLED_GATEWAYS } from './report.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100);
const BIG_TOPIC_SOCKETS = Math.min(1000, CONNECTIONS);
const BUDGET = { pushRatio: 1.1, readsPerEvent: 1 + CONNECTION_SHARDS };
const READS = new Set(['Query', 'GetItem', 'BatchGetItem', 'Scan']);
/** The job feed's own functions: the other rules on job events read for their own ends. */
const FEED_FUNCTIONS = new Set([ruleFunctionName('jobFeed'), 'queue-jobFeedShard' satisfies `queue-${keyof typeof QUEUE_CONSUMERS}`]);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

/** The client process, spoken to by command and awaited by the reply type. */
class Clients {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<ClientReply['type'], (reply: ClientReply) => void>();

  constructor() {
    this.child = fork(join(import.meta.dirname, 'fan-out-clients.ts'), { execArgv: process.execArgv });
    this.child.on('message', (reply: ClientReply) => {
      const resolve = this.waiting.get(reply.type);
      this.waiting.delete(reply.type);
      resolve?.(reply);
    });
    this.child.once('exit', (code) => {
      if (code) for (const resolve of this.waiting.values()) resolve({ type: 'count', pushes: Number.NaN });
    });
  }

  next<T extends ClientReply['type']>(type: T, timeoutMs = Infinity): Promise<Extract<ClientReply, { type: T }> | undefined> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(timeoutMs) ? setTimeout(() => resolve(undefined), timeoutMs) : undefined;
      this.waiting.set(type, (reply) => {
        clearTimeout(timer);
        resolve(reply as Extract<ClientReply, { type: T }>);
      });
    });
  }

  send(command: ClientCommand): void {
    this.child.send(command);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.send({ type: 'close' });
    await exited;
  }
}

export async function runFanOutBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-bench-feed-'));
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench-feed', ...UNTHROTTLED_GATEWAYS });
  const clients = new Clients();
  try {
    let feedReads = 0;
    stack.observeDynamoDb(({ operation, functionName }) => {
      if (READS.has(operation) && FEED_FUNCTIONS.has(functionName)) feedReads += 1;
    });

    const ready = clients.next('ready');
    clients.send({ type: 'open', url: `${stack.urls.webSocket}?token=anonymous`, connections: CONNECTIONS, subscriptions: SUBSCRIPTIONS, bigTopicSockets: BIG_TOPIC_SOCKETS });
    const opened = await ready;
    if (!opened) throw new Error('the client process exited before its sockets were open');
    console.log(`${CONNECTIONS} connections open and subscribed in ${(opened.setUpMs / 1000).toFixed(1)} s`);

    const bus = new EventBridgeClient({ endpoint: stack.urls.events });
    /** One application's change of a job, as the outbox relay puts it on the bus; resolves when `subscribed` pushes arrived (or after 2 minutes). */
    async function measure(jobId: string, subscribed: number) {
      await stack.events.idle();
      await stack.queues.idle();
      const expecting = clients.next('expecting');
      clients.send({ type: 'expect', pushes: subscribed });
      await expecting;
      feedReads = 0;
      const delivered = clients.next('delivered', 120_000);
      const started = performance.now();
      const job = { id: jobId, posterId: 'bench-poster', status: 'open', category: 'Other', pendingApplications: 1, updatedAt: new Date().toISOString() };
      await bus.send(
        new PutEventsCommand({
          Entries: [{ EventBusName: process.env[ENV.eventBusName], Source: EVENT_SOURCE.jobs, DetailType: JOB_EVENT.updated, Detail: JSON.stringify({ job, change: 'applications' }) }],
        }),
      );
      await delivered;
      const elapsedMs = performance.now() - started;
      // Whatever else arrives (a double push) until everything settled counts too.
      await stack.events.idle();
      await stack.queues.idle();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const counted = clients.next('count');
      clients.send({ type: 'count' });
      return { pushes: (await counted)?.pushes ?? Number.NaN, reads: feedReads, elapsedMs };
    }

    const small = await measure('bench-0', Math.ceil(CONNECTIONS / SUBSCRIPTIONS));
    const big = await measure('bench-big', BIG_TOPIC_SOCKETS);
    console.log(`\nJob feed fan-out: ${CONNECTIONS} WebSocket connections over ${SUBSCRIPTIONS} job topics (+ ${BIG_TOPIC_SOCKETS} on one more), ${CONNECTION_SHARDS} shards\n`);
    for (const [name, result, subscribed] of [
      [`one of the ${SUBSCRIPTIONS} jobs`, small, Math.ceil(CONNECTIONS / SUBSCRIPTIONS)],
      [`the job ${BIG_TOPIC_SOCKETS} sockets show`, big, BIG_TOPIC_SOCKETS],
    ] as const) {
      console.log(`${name}: ${result.pushes} pushes to ${subscribed} subscribed sockets, ${result.reads} DynamoDB reads (budget <= ${BUDGET.readsPerEvent}), delivered to all in ${result.elapsedMs.toFixed(0)} ms (${LIVE_COALESCING.defaultSeconds} s of it the coalescing window)`);
    }
    const ratio = (small.pushes + big.pushes) / (Math.ceil(CONNECTIONS / SUBSCRIPTIONS) + BIG_TOPIC_SOCKETS);
    console.log(`\npushes per event ÷ subscribed sockets: ${ratio.toFixed(3)}`);
    console.log(`(budget <= ${BUDGET.pushRatio}; before subscriptions every event went to all ${CONNECTIONS} sockets)`);
    console.log(`DynamoDB reads per event: ${Math.max(small.reads, big.reads)} (budget <= 1 + shards = ${BUDGET.readsPerEvent})`);
    console.log(`time to deliver one event to ${BIG_TOPIC_SOCKETS} subscribed sockets: ${big.elapsedMs.toFixed(0)} ms (coalescing window ${LIVE_COALESCING.defaultSeconds * 1000} ms included)`);
  } finally {
    await clients.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
