/**
 * `npm run bench -- chat`: live chat under load on the local stack.
 *
 * 200 WebSocket connections — 100 posters and 100 workers, one conversation per pair — send
 * messages through the HTTP API for 60 s, each user BENCH_CHAT_MESSAGES (3) evenly spaced
 * (at most 9: the 10-per-minute limit); no message is started after the 60 s. Then it compares, per connection, the messages it should have received (every
 * message of its conversation, its own echoed) with those pushed to it: lost and doubled must
 * be 0, and persisted must equal sent. Delivery latency is from the start of the send request
 * to the push arriving at the other party's connection (p50/p99, target p99 <= 50 ms). Beside
 * it, in turns with the sends of the same run, each user also times the DynamoDB writes one
 * send needs made raw (the send's transaction of six items, from this process): the budget is
 * a delivery p99 at most 1.5 x that raw p99 (the gateway, the handler and the push add little).
 * The same replay also makes the send's reads first, as the send does (one BatchGetItem beside
 * two Queries), and prints the delivery p99 against that whole: a send must read before it
 * writes (the conversation's last position is its transaction's condition), so the first ratio
 * holds the read round too, the second only what is not DynamoDB's.
 * Everything — gateways, handlers, DynamoDB Local and these 200 clients — shares this machine.
 * Before the timed minute each user sends one message, untimed (but checked like the others):
 * the bench measures warm functions, as steady traffic meets them; `npm run bench --
 * cold-start` measures the first invocation.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchGetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversationView } from '../../shared/api.js';
import { RATE_LIMITS } from '../../shared/limits.js';
import { keys } from '../../functions/table.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import { UNTHROTTLED_GATEWAYS } from './report.js';
import { ChatClient, sendMessage } from '../support/chat.js';
import { api, createUser, type TestUser } from '../support/stack-api.js';

const PAIRS = Number(process.env.BENCH_CHAT_PAIRS ?? 100);
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 60);
const TARGET_P99_MS = 50;
const RAW_RATIO_BUDGET = 1.5;
// Each user's messages in the run, evenly spaced (at most one short of the limit per minute: a run spans two fixed windows).
const MESSAGES_PER_USER = Math.min(Number(process.env.BENCH_CHAT_MESSAGES ?? 3), Math.max(1, Math.floor(((RATE_LIMITS.messages.limit - 1) * SECONDS) / 60)));

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += size) made.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)))));
  return made;
}

export async function runChatBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-bench-chat-'));
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench-chat', ...UNTHROTTLED_GATEWAYS });
  try {
    // Imported after the stack set the handlers' environment.
    const { db } = await import('../../functions/lib/db.js');
    const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
    const { createJobSchema } = await import('../../shared/schemas/job.js');

    console.log(`Creating ${PAIRS} posters, ${PAIRS} workers, their jobs and conversations...`);
    const posters = await inBatches(PAIRS, 10, (i) => createUser(stack, { role: 'poster', name: `Bench poster ${i}` }));
    const workers = await inBatches(PAIRS, 10, (i) => createUser(stack, { role: 'worker', name: `Bench worker ${i}` }));
    const request = createJobSchema.parse({
      title: 'Bench job',
      description: 'A job to talk about.',
      address: { street: '1 Main St', city: 'Austin', state: 'TX' },
      payment: 5000,
      category: 'Other',
      date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      duration: '1 hour',
    });
    const conversations = await inBatches(PAIRS, 10, async (i) => {
      const job = newJob(request, posters[i]!.userId, new Date().toISOString());
      await putNewJob(job);
      const started = await api<ConversationView>(stack, 'POST', '/conversations', { token: workers[i]!.idToken, body: { jobId: job.id } });
      return started.body;
    });

    const pairs = conversations.map((conversation, i) => ({ conversation, poster: posters[i]!, worker: workers[i]! }));
    const clients = new Map<TestUser, ChatClient>();
    await inBatches(pairs.length, 20, async (i) => {
      const { conversation, poster, worker } = pairs[i]!;
      for (const user of [poster, worker]) {
        const client = new ChatClient(stack, user, conversation.id);
        await client.open();
        clients.set(user, client);
      }
    });
    console.log(`${clients.size} connections open. Sending for ${SECONDS} s (${MESSAGES_PER_USER} messages per user)...`);

    /**
     * The DynamoDB calls of one send (functions/chat/conversations.ts sendMessage), made raw in
     * the send's rounds: its reads (one BatchGetItem beside the two parties' connection Queries,
     * on the real items), then its writes (its one transaction, on items of their own). Both the
     * writes alone and the whole are timed.
     */
    const rawWriteLatencies: number[] = [];
    const rawCallsLatencies: number[] = [];
    async function timeRawSendWrites(pair: (typeof pairs)[number], senderId: string): Promise<void> {
      const id = randomUUID();
      const [jobId, workerId] = pair.conversation.id.split('_');
      const partition = `BENCHRAW#${pair.conversation.id}`;
      const connectionsOf = (userId: string) =>
        db.send(new QueryCommand({ TableName: stack.tableName, IndexName: 'GSI1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.connectionsByUser(userId) } }));
      const readsStarted = performance.now();
      await Promise.all([
        db.send(
          new BatchGetCommand({
            RequestItems: {
              [stack.tableName]: {
                Keys: [keys.profile(senderId), keys.conversation(jobId!, workerId!), keys.job(jobId!)],
                ConsistentRead: true,
              },
            },
          }),
        ),
        connectionsOf(pair.poster.userId),
        connectionsOf(pair.worker.userId),
      ]);
      const now = new Date().toISOString();
      const started = performance.now();
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: stack.tableName, Item: { pk: partition, sk: `CLIENTMSG#${senderId}#${id}`, position: `${now}#${id}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: stack.tableName, Item: { pk: partition, sk: `MSG#${now}#${id}`, id, senderId, content: 'raw', createdAt: now }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Update: { TableName: stack.tableName, Key: { pk: partition, sk: 'CONV' }, UpdateExpression: 'SET updatedAt = :now, lastPosition = :now ADD unread :one', ExpressionAttributeValues: { ':now': now, ':one': 1 } } },
            { ConditionCheck: { TableName: stack.tableName, Key: { pk: `JOB#${jobId}`, sk: 'JOB' }, ConditionExpression: 'attribute_exists(pk)' } },
            { Update: { TableName: stack.tableName, Key: { pk: `BENCHRAW#${workerId}`, sk: 'UNREAD' }, UpdateExpression: 'ADD unreadTotal :one', ExpressionAttributeValues: { ':one': 1 } } },
            {
              Update: {
                TableName: stack.tableName,
                Key: { pk: `BENCHRAW#RATE#${senderId}`, sk: 'RATE' },
                UpdateExpression: 'ADD attempts :ids',
                ConditionExpression: 'attribute_not_exists(attempts) OR size(attempts) < :limit OR contains(attempts, :id)',
                ExpressionAttributeValues: { ':ids': new Set([id]), ':id': id, ':limit': 1000 },
              },
            },
          ],
        }),
      );
      rawWriteLatencies.push(performance.now() - started);
      rawCallsLatencies.push(performance.now() - readsStarted);
    }

    // One untimed message per user first, so the timed minute meets warm functions.
    const warmUpIds = new Set<string>();
    let sent = 0;
    await inBatches(pairs.length * 2, 10, async (i) => {
      const pair = pairs[Math.floor(i / 2)]!;
      const user = i % 2 ? pair.worker : pair.poster;
      const id = randomUUID();
      warmUpIds.add(id);
      const response = await sendMessage(stack, user, pair.conversation.id, 'warming up', id);
      if (response.status !== 201) throw new Error(`warm-up send: ${response.status}`);
      sent += 1;
      await timeRawSendWrites(pair, user.userId);
    });
    rawWriteLatencies.length = 0;
    rawCallsLatencies.length = 0;

    const sentAt = new Map<string, number>();
    const sendLatencies: number[] = [];
    const refused = new Map<number, number>();
    const interval = (SECONDS * 1000) / MESSAGES_PER_USER;
    const sendingStarted = performance.now();
    const deadline = sendingStarted + SECONDS * 1000;
    const senders = pairs.flatMap((pair) =>
      [pair.poster, pair.worker].map(async (user) => {
        const { conversation } = pair;
        await wait(Math.random() * interval);
        let next = 0;
        for (let n = 0; n < MESSAGES_PER_USER && performance.now() < deadline; n++) {
          if (n > 0) await wait(Math.max(0, next - performance.now()));
          next = performance.now() + interval;
          const id = randomUUID();
          const started = performance.now();
          sentAt.set(id, started);
          const response = await sendMessage(stack, user, conversation.id, `message ${n} from ${user.userId.slice(0, 8)}`, id);
          sendLatencies.push(performance.now() - started);
          if (response.status === 201) sent += 1;
          else refused.set(response.status, (refused.get(response.status) ?? 0) + 1);
          // In turns with the send, under the same load.
          await wait(Math.random() * (interval / 2));
          await timeRawSendWrites(pair, user.userId);
        }
      }),
    );
    await Promise.all(senders);
    const sendingSeconds = (performance.now() - sendingStarted) / 1000;
    await wait(3000); // the last pushes in flight
    for (const client of clients.values()) client.close();

    let persisted = 0;
    for (const { conversation } of pairs) {
      const [jobId, workerId] = conversation.id.split('_');
      const { Count = 0 } = await db.send(
        new QueryCommand({
          TableName: stack.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
          ExpressionAttributeValues: { ':pk': `CONV#${jobId}#${workerId}`, ':msg': 'MSG#' },
          Select: 'COUNT',
        }),
      );
      persisted += Count;
    }

    // Per connection: every message of its conversation once (its own echoed back too).
    let expected = 0;
    let delivered = 0;
    let lost = 0;
    let doubled = 0;
    const latencies: number[] = [];
    for (const { conversation, poster, worker } of pairs) {
      const [jobId, workerId] = conversation.id.split('_');
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: stack.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
          ExpressionAttributeValues: { ':pk': `CONV#${jobId}#${workerId}`, ':msg': 'MSG#' },
          ProjectionExpression: 'id, senderId',
        }),
      );
      for (const user of [poster, worker]) {
        const client = clients.get(user)!;
        const received = new Map<string, number>();
        for (const push of client.pushes) {
          received.set(push.message.id, (received.get(push.message.id) ?? 0) + 1);
          if (push.message.senderId !== user.userId && !warmUpIds.has(push.message.id)) latencies.push(push.receivedAt - sentAt.get(push.message.id)!);
        }
        expected += Items.length;
        delivered += client.pushes.length;
        lost += Items.filter((item) => !received.has(item.id as string)).length;
        doubled += [...received.values()].filter((count) => count > 1).length;
      }
    }

    latencies.sort((a, b) => a - b);
    sendLatencies.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`\nChat: ${clients.size} connections, ${pairs.length} conversations, sending for ${sendingSeconds.toFixed(0)} s (planned ${SECONDS} s)\n`);
    console.log(`messages sent (201)           ${sent} (${warmUpIds.size} of them untimed, warming up)`);
    console.log(`refused                       ${refused.size ? [...refused].map(([status, count]) => `${count} x ${status}`).join(', ') : 0}`);
    console.log(`messages persisted            ${persisted}`);
    console.log(`deliveries expected           ${expected} (each message to both parties' connections)`);
    console.log(`deliveries received           ${delivered}`);
    console.log(`lost                          ${lost}`);
    console.log(`doubled                       ${doubled}`);
    console.log(`delivery latency p50 / p99    ${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} (target p99 <= ${TARGET_P99_MS} ms)`);
    console.log(`send request p50 / p99        ${ms(percentile(sendLatencies, 50))} / ${ms(percentile(sendLatencies, 99))}`);
    rawWriteLatencies.sort((a, b) => a - b);
    console.log(`raw writes of a send p50 / p99 ${ms(percentile(rawWriteLatencies, 50))} / ${ms(percentile(rawWriteLatencies, 99))} (${rawWriteLatencies.length} timed in turns with the sends)`);
    rawCallsLatencies.sort((a, b) => a - b);
    console.log(`raw calls of a send p50 / p99  ${ms(percentile(rawCallsLatencies, 50))} / ${ms(percentile(rawCallsLatencies, 99))} (its reads, then its writes, as above)`);
    console.log(`chat delivery p99 ÷ raw write p99: ${(percentile(latencies, 99) / percentile(rawWriteLatencies, 99)).toFixed(2)}`);
    console.log(`(budget <= ${RAW_RATIO_BUDGET})`);
    console.log(`chat delivery p99 ÷ raw calls p99: ${(percentile(latencies, 99) / percentile(rawCallsLatencies, 99)).toFixed(2)} (what the gateway, the handler and the push add to all of a send's DynamoDB calls)`);
    const ok = sent === persisted && lost === 0 && doubled === 0 && delivered === expected;
    console.log(ok ? '\nOK: every message persisted once and delivered once to every connection.' : '\nFAILED: see the counts above.');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

